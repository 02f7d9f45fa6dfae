/*
 * What the C tests share (bad_input_test.c, parity_test.c): counted checks that report the file,
 * line and expression of each failure, and a look at this thread's last error message.
 */
#ifndef MSAL_NA_TEST_SUPPORT_H
#define MSAL_NA_TEST_SUPPORT_H

#include <msal_native_auth.h>
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
static int message_has(const char *part) {
    char *message = msal_na_last_error_message();
    int found = message && strstr(message, part) != NULL;
    if (!found) fprintf(stderr, "  last error message: %s (wanted '%s')\n", message ? message : "(none)", part);
    msal_na_string_free(message);
    return found;
}

#endif
