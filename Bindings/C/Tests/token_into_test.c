/*
 * msal_na_account_get_access_token_into against the emulator: the full call first, then the fast
 * path (no result, the same token), the buffer's layout and bounds (exactly big enough, one byte
 * short, none at all), force_refresh, sign-out (the fast path never serves a token the cache no
 * longer holds), bad arguments, and eight threads on one account. Built and run by
 * scripts/test-bindings under AddressSanitizer and UndefinedBehaviorSanitizer, then ThreadSanitizer.
 * Usage: token_into_test AUTHORITY CLIENT_ID   (a running emulator)
 */
#include <msal_native_auth.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define TODOLIST "api://emulator/todolist/ToDoList.Read"
#define PROFILE "api://emulator/profile/Profile.Read"

/* The token through the _wait form, as a reference (caller frees). */
static char *token_by_wait(msal_na_account *account, const char *scopes) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_account_get_access_token_wait(account, scopes, 0, &result), MSAL_NA_OK);
    char *token = msal_na_result_access_token(result);
    char *copy = token ? strdup(token) : NULL;
    msal_na_string_free(token);
    msal_na_result_free(result);
    return copy;
}

/* How many full calls (with a result) come before the fast path serves `scopes`; each call must
 * give `expected`. */
static int calls_until_fast(msal_na_account *account, const char *scopes, const char *expected) {
    char buffer[4096];
    for (int full = 0; full < 3; full++) {
        msal_na_result *result = NULL;
        CHECK_CODE(msal_na_account_get_access_token_into(account, scopes, 0, buffer, sizeof buffer, NULL, NULL, &result), MSAL_NA_OK);
        CHECK(strcmp(buffer, expected) == 0);
        if (result == NULL) return full;
        msal_na_result_free(result);
    }
    return 3;
}

static void steady_state(msal_na_account *account) {
    char buffer[4096];
    size_t size = 0;
    int64_t expires_on = 0;
    msal_na_result *result = NULL;
    /* The first call for this scopes string takes the full way and hands its result over. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, buffer, sizeof buffer, &size, &expires_on, &result),
               MSAL_NA_OK);
    CHECK(result != NULL && msal_na_result_outcome(result) == MSAL_NA_OUTCOME_ACCESS_TOKEN);
    char *correlation = msal_na_result_correlation_id(result);
    CHECK(correlation != NULL && strlen(correlation) == 36);
    msal_na_string_free(correlation);
    msal_na_result_free(result);
    char *reference = token_by_wait(account, TODOLIST);
    CHECK(reference != NULL && strcmp(buffer, reference) == 0);
    /* Layout: token NUL scopes NUL, and size counts both NULs. */
    size_t token_length = strlen(buffer);
    CHECK(size == token_length + 1 + strlen(buffer + token_length + 1) + 1);
    CHECK(strstr(buffer + token_length + 1, TODOLIST) != NULL);
    CHECK(expires_on > 1700000000);
    /* The steady state: no result, the same token, expiry and size. */
    for (int i = 0; i < 100; i++) {
        char again[4096];
        size_t again_size = 0;
        int64_t again_expires = 0;
        result = (msal_na_result *)0x1;
        CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, again, sizeof again, &again_size, &again_expires, &result),
                   MSAL_NA_OK);
        CHECK(result == NULL);
        CHECK(again_size == size && memcmp(again, buffer, size) == 0 && again_expires == expires_on);
    }
    /* Every out-parameter may be NULL. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, buffer, sizeof buffer, NULL, NULL, NULL), MSAL_NA_OK);
    CHECK(strcmp(buffer, reference) == 0);
    /* A second scopes string beside the first (an app asks per API): its first token is a refresh,
     * which changes the cache, so each scopes string takes the full way once more (a cache hit,
     * remembered), then both are fast and right. */
    char profile[4096];
    CHECK_CODE(msal_na_account_get_access_token_into(account, PROFILE, 0, profile, sizeof profile, NULL, NULL, NULL), MSAL_NA_OK);
    CHECK(strcmp(profile, reference) != 0);
    CHECK(calls_until_fast(account, PROFILE, profile) == 1);
    CHECK(calls_until_fast(account, TODOLIST, reference) == 1);
    CHECK(calls_until_fast(account, PROFILE, profile) == 0);
    CHECK(calls_until_fast(account, TODOLIST, reference) == 0);
    free(reference);
}

static void buffer_bounds(msal_na_account *account) {
    char buffer[4096];
    size_t needed = 0;
    msal_na_result *result = NULL;
    /* No buffer: the size needed, nothing written. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, NULL, 0, &needed, NULL, &result),
               MSAL_NA_ERR_BUFFER_TOO_SMALL);
    CHECK(result == NULL && needed > 100 && needed < sizeof buffer);
    CHECK(message_has("need"));
    /* One byte short: refused, the buffer untouched. */
    memset(buffer, 'Q', sizeof buffer);
    size_t size = 0;
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, buffer, needed - 1, &size, NULL, NULL),
               MSAL_NA_ERR_BUFFER_TOO_SMALL);
    CHECK(size == needed);
    CHECK(buffer[0] == 'Q' && buffer[needed - 2] == 'Q');
    /* Exactly big enough: written, the last byte the scopes' NUL, the byte after untouched. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, buffer, needed, &size, NULL, NULL), MSAL_NA_OK);
    CHECK(size == needed && buffer[needed - 1] == '\0' && buffer[needed] == 'Q');
    /* Arguments: NULL buffer with a capacity, NULL account, not a handle, a handle of another kind,
     * invalid UTF-8 scopes; the error comes back in the result too. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, NULL, 16, &size, NULL, &result), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(result != NULL && msal_na_result_error(result) == MSAL_NA_ERR_INVALID_ARGUMENT);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_account_get_access_token_into(NULL, TODOLIST, 0, buffer, sizeof buffer, &size, NULL, &result),
               MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(result != NULL && size == 0);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_account_get_access_token_into((msal_na_account *)0x1234, TODOLIST, 0, buffer, sizeof buffer, NULL, NULL, NULL),
               MSAL_NA_ERR_INVALID_HANDLE);
    msal_na_result *not_an_account = NULL;
    msal_na_account_get_access_token_wait(account, TODOLIST, 0, &not_an_account);
    CHECK_CODE(msal_na_account_get_access_token_into((msal_na_account *)not_an_account, TODOLIST, 0, buffer, sizeof buffer, NULL, NULL, NULL),
               MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(message_has("another kind"));
    msal_na_result_free(not_an_account);
    CHECK_CODE(msal_na_account_get_access_token_into(account, "\xc3\x28", 0, buffer, sizeof buffer, NULL, NULL, NULL),
               MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("UTF-8"));
}

static void refresh_and_sign_out(msal_na_account *account) {
    char before[4096], after[4096];
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, before, sizeof before, NULL, NULL, NULL), MSAL_NA_OK);
    /* force_refresh always takes the full way: a new token, with its result. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 1, after, sizeof after, NULL, NULL, &result), MSAL_NA_OK);
    CHECK(result != NULL);
    msal_na_result_free(result);
    CHECK(strcmp(before, after) != 0);
    /* ... which the next plain call serves. */
    CHECK_CODE(msal_na_account_get_access_token_into(account, TODOLIST, 0, before, sizeof before, NULL, NULL, NULL), MSAL_NA_OK);
    CHECK(strcmp(before, after) == 0);
    /* After sign-out the cache holds no token: the fast path serves nothing, the full way fails. */
    CHECK_CODE(msal_na_account_sign_out(account), MSAL_NA_OK);
    memset(before, 0, sizeof before);
    int code = msal_na_account_get_access_token_into(account, TODOLIST, 0, before, sizeof before, NULL, NULL, &result);
    CHECK(code != MSAL_NA_OK);
    CHECK(result != NULL && (int)msal_na_result_error(result) == code);
    CHECK(before[0] == '\0');
    msal_na_result_free(result);
}

/* Eight threads, one account, each its own buffer: every call gives the same token. */
struct shared_account {
    msal_na_account *account;
    const char *expected;
};

static int hammer(void *argument) {
    struct shared_account *shared = argument;
    char buffer[4096];
    int mismatches = 0;
    for (int i = 0; i < 500; i++) {
        int code = msal_na_account_get_access_token_into(shared->account, i % 2 ? TODOLIST : PROFILE, 0, buffer, sizeof buffer, NULL,
                                                         NULL, NULL);
        if (code != MSAL_NA_OK || (i % 2 && strcmp(buffer, shared->expected) != 0)) mismatches++;
    }
    return mismatches;
}

static void threads(msal_na_account *account) {
    char *expected = token_by_wait(account, TODOLIST);
    struct shared_account shared = {account, expected};
    CHECK(sum_on_threads(8, hammer, &shared) == 0);
    free(expected);
}

static msal_na_account *sign_in(msal_na_app *app) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    msal_na_account *account = msal_na_result_take_account(result);
    msal_na_result_free(result);
    return account;
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    char json[1024];
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", argv[2], argv[1]);
    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    msal_na_account *account = sign_in(app);
    CHECK(account != NULL);
    if (account) {
        steady_state(account);
        buffer_bounds(account);
        threads(account);
        refresh_and_sign_out(account);
        msal_na_account_free(account);
    }
    msal_na_app_free(app);
    return report("token into test");
}
