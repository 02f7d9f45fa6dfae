/*
 * The checks the C tests share (bad_input_test.c, token_into_test.c, state_test.c, parity_test.c, v2_test.c,
 * redirect_test.c, detach_test.c):
 * CHECK counts a failed condition and goes on; CHECK_CODE compares an msal_na_error and names both
 * sides; message_has looks in the calling thread's last error message; emulator_base gives the
 * emulator's base URL for its test hooks; sum_on_threads runs a body
 * on several threads at once. A test ends with `return report("name")`, which checks that no
 * handle or string of the library is left live, prints the counts and fails on any failed check.
 * The functions are `static inline`: a test that does not use one draws no unused-function warning.
 */
#ifndef MSAL_NA_TEST_CHECK_H
#define MSAL_NA_TEST_CHECK_H

#include <msal_native_auth.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int failures, checks;
#define CHECK(condition)                                                                   \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(condition)) {                                                                \
            failures++;                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
        }                                                                                  \
    } while (0)
#define CHECK_CODE(expression, expected)                                                                        \
    do {                                                                                                        \
        int got_ = (expression);                                                                                \
        checks++;                                                                                               \
        if (got_ != (expected)) {                                                                               \
            failures++;                                                                                         \
            fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #expression,              \
                    msal_na_error_name(got_), msal_na_error_name(expected));                                    \
        }                                                                                                       \
    } while (0)

/* The last error message of this thread contains `part`. */
static inline int message_has(const char *part) {
    char *message = msal_na_last_error_message();
    int found = message && strstr(message, part) != NULL;
    if (!found) fprintf(stderr, "  last error message: %s (wanted '%s')\n", message ? message : "(none)", part);
    msal_na_string_free(message);
    return found;
}

/* The emulator's base URL, the authority's scheme, host and port, into `base` (for its test hooks). */
static inline void emulator_base(const char *authority, char *base, size_t size) {
    const char *host = strstr(authority, "://");
    const char *path = host ? strchr(host + 3, '/') : NULL;
    snprintf(base, size, "%.*s", path ? (int)(path - authority) : (int)strlen(authority), authority);
}

/* Runs body(argument) on `count` threads at once (at most 16) and returns the sum of what they
 * returned: the threads count (their failures, say) and the calling thread checks, so CHECK's
 * counters are only ever touched by one thread. */
struct thread_run {
    int (*body)(void *);
    void *argument;
    int failures;
};

static inline void *thread_main(void *run) {
    struct thread_run *this = run;
    this->failures = this->body(this->argument);
    return NULL;
}

static inline int sum_on_threads(int count, int (*body)(void *), void *argument) {
    struct thread_run runs[16];
    pthread_t ids[16];
    int failures = 0;
    count = count > 16 ? 16 : count;
    for (int i = 0; i < count; i++) {
        runs[i] = (struct thread_run){body, argument, 0};
        pthread_create(&ids[i], NULL, thread_main, &runs[i]);
    }
    for (int i = 0; i < count; i++) {
        pthread_join(ids[i], NULL);
        failures += runs[i].failures;
    }
    return failures;
}

static inline int report(const char *name) {
    /* Everything the test was given is freed: no handle or string of the library is left. */
    CHECK(msal_na_live_handles() == 0);
    CHECK(msal_na_live_strings() == 0);
    printf("%s: %d checks, %d failed\n", name, checks, failures);
    return failures ? 1 : 0;
}

#endif
