/*
 * Cached getAccessToken through the C interface, as a C program does it: the blocking call, the
 * token copied out, the string and the result freed. Prints {"samples": [ns, ...]} for the timed calls.
 * Usage: bench_cached_token CONFIG_JSON SCOPE ITERATIONS   (run by Bindings/Benchmarks/bench_cached_token.py)
 */
#include <msal_native_auth.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int get_token(msal_na_account *account, const char *scope) {
    msal_na_result *result = NULL;
    int error = msal_na_account_get_access_token_wait(account, scope, 0, &result);
    char *token = msal_na_result_access_token(result);
    msal_na_string_free(token);
    msal_na_result_free(result);
    return error;
}

int main(int argc, char **argv) {
    if (argc != 4) return fprintf(stderr, "usage: %s CONFIG_JSON SCOPE ITERATIONS\n", argv[0]), 2;
    int iterations = atoi(argv[3]);
    msal_na_app *app = NULL;
    msal_na_account *account = NULL;
    if (msal_na_app_create(argv[1], &app) != MSAL_NA_OK || msal_na_app_current_account(app, &account) != MSAL_NA_OK) {
        char *message = msal_na_last_error_message();
        fprintf(stderr, "setup: %s\n", message);
        return 1;
    }
    for (int i = 0; i < 200; i++)
        if (get_token(account, argv[2]) != MSAL_NA_OK) return fprintf(stderr, "getAccessToken failed\n"), 1;
    long long *samples = malloc(sizeof *samples * (size_t)iterations);
    for (int i = 0; i < iterations; i++) {
        long long start = now_ns();
        get_token(account, argv[2]);
        samples[i] = now_ns() - start;
    }
    printf("{\"samples\": [");
    for (int i = 0; i < iterations; i++) printf("%s%lld", i ? "," : "", samples[i]);
    printf("]}\n");
    free(samples);
    msal_na_account_free(account);
    msal_na_app_free(app);
    return 0;
}
