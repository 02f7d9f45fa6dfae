/*
 * Cached getAccessToken through the C interface, as a C program does it, in both forms:
 *   wait: msal_na_account_get_access_token_wait, the token copied out, the string and the result freed;
 *   into: msal_na_account_get_access_token_into, the token copied into the program's buffer.
 * Prints {"wait": [ns, ...], "into": [ns, ...]} for the timed calls (the forms interleaved in blocks
 * of 1,000, so both see the same machine).
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

static int token_wait(msal_na_account *account, const char *scope) {
    msal_na_result *result = NULL;
    int error = msal_na_account_get_access_token_wait(account, scope, 0, &result);
    char *token = msal_na_result_access_token(result);
    msal_na_string_free(token);
    msal_na_result_free(result);
    return error;
}

static char buffer[4096];

static int token_into(msal_na_account *account, const char *scope) {
    size_t size = 0;
    int64_t expires_on = 0;
    msal_na_result *result = NULL;
    int error = msal_na_account_get_access_token_into(account, scope, 0, buffer, sizeof buffer, &size, &expires_on, &result);
    msal_na_result_free(result); /* NULL (nothing to free) when the token came from the fast path */
    return error;
}

static void print_samples(const char *name, const long long *samples, int count) {
    printf("\"%s\": [", name);
    for (int i = 0; i < count; i++) printf("%s%lld", i ? "," : "", samples[i]);
    printf("]");
}

int main(int argc, char **argv) {
    if (argc != 4) return fprintf(stderr, "usage: %s CONFIG_JSON SCOPE ITERATIONS\n", argv[0]), 2;
    int iterations = atoi(argv[3]);
    msal_na_app *app = NULL;
    msal_na_account *account = NULL;
    if (iterations <= 0 || msal_na_app_create(argv[1], &app) != MSAL_NA_OK || msal_na_app_current_account(app, &account) != MSAL_NA_OK) {
        char *message = msal_na_last_error_message();
        fprintf(stderr, "setup: %s\n", message ? message : "ITERATIONS must be positive");
        return 1;
    }
    for (int i = 0; i < 200; i++)
        if (token_wait(account, argv[2]) != MSAL_NA_OK || token_into(account, argv[2]) != MSAL_NA_OK)
            return fprintf(stderr, "getAccessToken failed\n"), 1;
    long long *waited = malloc(sizeof *waited * (size_t)iterations), *copied = malloc(sizeof *copied * (size_t)iterations);
    for (int block = 0; block < iterations; block += 1000) {
        int end = block + 1000 < iterations ? block + 1000 : iterations;
        for (int i = block; i < end; i++) {
            long long start = now_ns();
            token_wait(account, argv[2]);
            waited[i] = now_ns() - start;
        }
        for (int i = block; i < end; i++) {
            long long start = now_ns();
            token_into(account, argv[2]);
            copied[i] = now_ns() - start;
        }
    }
    printf("{");
    print_samples("wait", waited, iterations);
    printf(", ");
    print_samples("into", copied, iterations);
    printf("}\n");
    free(waited);
    free(copied);
    msal_na_account_free(account);
    msal_na_app_free(app);
    return 0;
}
