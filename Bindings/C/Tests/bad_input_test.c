/*
 * Bad input at the C boundary: NULL pointers, invalid UTF-8, handles used after free, freed twice,
 * of the wrong kind or never handles, strings freed twice or foreign, malformed configuration,
 * callbacks that re-enter the library. Built with -fsanitize=address,undefined by scripts/test-bindings:
 * any crash, memory error or leak fails it, as does any check below.
 * Usage: bad_input_test AUTHORITY CLIENT_ID   (a running emulator)
 */
#include "check.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void configuration_errors(const char *authority, const char *client_id) {
    msal_na_app *app = (msal_na_app *)0x1;
    char json[1024];
    CHECK_CODE(msal_na_app_create(NULL, &app), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(app == NULL); /* *out is cleared on failure */
    CHECK_CODE(msal_na_app_create("{}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_create("\xff\xfe{", &app), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("UTF-8"));
    const char *malformed[] = {"", "{", "[]", "null", "{\"client_id\": 5}", "{\"client_id\": \"x\"}",
                               "{\"client_id\": \"x\", \"tenant_subdomain\": \"a\", \"authority\": \"https://a.b\"}",
                               "{\"client_id\": \"x\", \"authority\": \"http://example.com\"}",
                               "{\"client_id\": \"x\", \"tenant_subdomain\": \"not a label\"}",
                               "{\"client_id\": \"x\", \"tenant_subdomain\": \"a\", \"colour\": 1}",
                               "{\"client_id\": \"x\", \"tenant_subdomain\": \"a\", \"challenge_types\": [\"sms\"]}",
                               "{\"client_id\": \"x\", \"tenant_subdomain\": \"a\", \"cache\": \"disk\"}"};
    for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
        CHECK_CODE(msal_na_app_create(malformed[i], &app), MSAL_NA_ERR_INVALID_CONFIG);
        CHECK(app == NULL);
    }
    /* The message names the field. */
    CHECK_CODE(msal_na_app_create("{\"client_id\": \"x\", \"tenant_subdomain\": \"a\", \"colour\": 1}", &app),
               MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("unknown field 'colour'"));
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", client_id, authority);
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    CHECK(app != NULL);
    CHECK_CODE(msal_na_app_free(app), MSAL_NA_OK);
}

static void handle_errors(msal_na_app *app) {
    msal_na_result *result = NULL;
    int on_stack = 0;
    /* Never handles: NULL, small integers, a stack address, a heap address. */
    void *heap = malloc(64);
    void *bogus[] = {(void *)0x1, (void *)0x1234, &on_stack, heap, (void *)-1};
    CHECK_CODE(msal_na_sign_in_wait(NULL, "a@b.c", NULL, NULL, &result), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(result != NULL && msal_na_result_error(result) == MSAL_NA_ERR_INVALID_ARGUMENT);
    msal_na_result_free(result);
    for (size_t i = 0; i < sizeof bogus / sizeof *bogus; i++) {
        CHECK_CODE(msal_na_sign_in_wait(bogus[i], "a@b.c", NULL, NULL, &result), MSAL_NA_ERR_INVALID_HANDLE);
        msal_na_result_free(result);
        CHECK_CODE(msal_na_state_submit_code_wait(bogus[i], "1", NULL), MSAL_NA_ERR_INVALID_HANDLE);
        CHECK_CODE(msal_na_account_sign_out(bogus[i]), MSAL_NA_ERR_INVALID_HANDLE);
        CHECK_CODE(msal_na_result_free(bogus[i]), MSAL_NA_ERR_INVALID_HANDLE);
        CHECK_CODE(msal_na_app_free(bogus[i]), MSAL_NA_ERR_INVALID_HANDLE);
        CHECK(msal_na_state_kind(bogus[i]) == 0);
        CHECK(msal_na_result_take_state(bogus[i]) == NULL);
        CHECK(msal_na_result_message(bogus[i]) == NULL);
        CHECK(msal_na_account_username(bogus[i]) == NULL);
        CHECK(msal_na_result_error(bogus[i]) == MSAL_NA_ERR_INVALID_HANDLE);
        CHECK(msal_na_result_outcome(bogus[i]) == MSAL_NA_OUTCOME_ERROR);
    }
    free(heap);
    /* Arguments: NULL where required, invalid UTF-8, NULL callback (not called, error returned). */
    CHECK_CODE(msal_na_sign_in_wait(app, NULL, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("'username' is NULL"));
    CHECK_CODE(msal_na_sign_in_wait(app, "\xc3\x28", NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("not valid UTF-8"));
    CHECK_CODE(msal_na_sign_in_wait(app, "a@b.c", "\x80", NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_sign_in_wait(app, "a@b.c", NULL, "\xed\xa0\x80", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_sign_in(app, "a@b.c", NULL, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("'callback' is NULL"));
    CHECK_CODE(msal_na_sign_up_wait(app, "a@b.c", NULL, "{not json", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_sign_up_wait(app, "a@b.c", NULL, "[1, 2]", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_current_account(app, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    msal_na_account *account = (msal_na_account *)0x1;
    CHECK_CODE(msal_na_app_current_account(app, &account), MSAL_NA_ERR_NO_ACCOUNT);
    CHECK(account == NULL);
    /* Wrong kind: an application where a state, account or result is expected. */
    CHECK_CODE(msal_na_state_submit_code_wait((msal_na_state *)app, "1", NULL), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(message_has("another kind"));
    CHECK_CODE(msal_na_account_free((msal_na_account *)app), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(msal_na_result_free((msal_na_result *)app), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(msal_na_error_name(12345) && strcmp(msal_na_error_name(12345), "MSAL_NA_ERR_UNKNOWN") == 0);
    CHECK(strcmp(msal_na_error_name(MSAL_NA_ERR_INVALID_CODE), "MSAL_NA_ERR_INVALID_CODE") == 0);
}

static void string_errors(void) {
    char *message;
    msal_na_app_create(NULL, NULL);
    message = msal_na_last_error_message();
    CHECK(message != NULL);
    CHECK_CODE(msal_na_string_free(message), MSAL_NA_OK);
    CHECK_CODE(msal_na_string_free(message), MSAL_NA_ERR_INVALID_HANDLE); /* twice: detected, nothing freed */
    char *foreign = strdup("not the library's");
    CHECK_CODE(msal_na_string_free(foreign), MSAL_NA_ERR_INVALID_HANDLE);  /* left to its owner */
    CHECK(strcmp(foreign, "not the library's") == 0);
    free(foreign);
    char on_stack[8] = "stack";
    CHECK_CODE(msal_na_string_free(on_stack), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(msal_na_string_free(NULL), MSAL_NA_OK);
}

/* A state from a real flow: used after free, freed twice, with the wrong operation. */
static void state_errors(msal_na_app *app) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(app, "grace@example.com", NULL, NULL, &result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_CODE_REQUIRED);
    msal_na_state *state = msal_na_result_take_state(result);
    CHECK(state != NULL);
    CHECK(msal_na_result_take_state(result) == NULL); /* handed over once */
    CHECK(msal_na_result_auth_method(result, 999, MSAL_NA_AUTH_METHOD_ID) == NULL);
    CHECK(msal_na_result_attribute(result, 0, 42) == NULL);
    CHECK(msal_na_state_kind(state) == MSAL_NA_STATE_SIGN_IN_CODE_REQUIRED);
    CHECK_CODE(msal_na_result_free(result), MSAL_NA_OK);
    CHECK_CODE(msal_na_result_free(result), MSAL_NA_ERR_INVALID_HANDLE); /* double free */
    CHECK_CODE(msal_na_state_submit_password_wait(state, "x", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_sign_in_wait(state, NULL, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_request_challenge_wait(state, "id", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_submit_code_wait(state, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_state_submit_code_wait(state, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE); /* and still usable: */
    CHECK_CODE(msal_na_state_submit_code_wait(state, "\xff", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_state_free(state), MSAL_NA_OK);
    CHECK_CODE(msal_na_state_free(state), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(msal_na_state_submit_code_wait(state, "00000000", NULL), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(msal_na_state_kind(state) == 0);
}

/* Callbacks: called once, on another thread; a callback may call a _wait function. */
struct waiter {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int calls, nested, outcome;
    pthread_t caller;
    int other_thread;
};

static void on_result(msal_na_result *result, void *user_data) {
    struct waiter *waiter = user_data;
    msal_na_state *state = msal_na_result_take_state(result);
    int nested = msal_na_state_submit_code_wait(state, "00000000", NULL); /* re-entrant, blocking */
    pthread_mutex_lock(&waiter->lock);
    waiter->calls++;
    waiter->outcome = msal_na_result_outcome(result);
    waiter->nested = nested;
    waiter->other_thread = !pthread_equal(pthread_self(), waiter->caller);
    pthread_cond_signal(&waiter->done);
    pthread_mutex_unlock(&waiter->lock);
    msal_na_state_free(state);
    msal_na_result_free(result);
}

static void callbacks(msal_na_app *app) {
    struct waiter waiter = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, pthread_self(), 0};
    CHECK_CODE(msal_na_sign_in(app, "grace@example.com", NULL, NULL, on_result, &waiter), MSAL_NA_OK);
    pthread_mutex_lock(&waiter.lock);
    while (waiter.calls == 0) pthread_cond_wait(&waiter.done, &waiter.lock);
    pthread_mutex_unlock(&waiter.lock);
    CHECK(waiter.calls == 1);
    CHECK(waiter.outcome == MSAL_NA_OUTCOME_CODE_REQUIRED);
    CHECK(waiter.nested == MSAL_NA_ERR_INVALID_CODE);
    CHECK(waiter.other_thread);
    /* Not started: the callback is never called. */
    CHECK_CODE(msal_na_sign_in((msal_na_app *)0x99, "a@b.c", NULL, NULL, on_result, &waiter), MSAL_NA_ERR_INVALID_HANDLE);
}

/* Eight threads free one handle at once: exactly one succeeds. */
static int free_shared(void *state) {
    return msal_na_state_free(state) == MSAL_NA_OK;
}

static void concurrent_free(msal_na_app *app) {
    msal_na_result *result = NULL;
    msal_na_reset_password_wait(app, "ada@example.com", &result);
    msal_na_state *state = msal_na_result_take_state(result);
    msal_na_result_free(result);
    CHECK(state != NULL);
    CHECK(sum_on_threads(8, free_shared, state) == 1);
}

/* The header's numbers and the library's agree: each code's name is the header's name for it. */
static void error_table(void) {
#define ENTRY(code) {code, #code}
    struct { int code; const char *name; } table[] = {
        ENTRY(MSAL_NA_OK), ENTRY(MSAL_NA_ERR_INVALID_ARGUMENT), ENTRY(MSAL_NA_ERR_INVALID_HANDLE),
        ENTRY(MSAL_NA_ERR_INVALID_CONFIG), ENTRY(MSAL_NA_ERR_WRONG_STATE), ENTRY(MSAL_NA_ERR_GENERAL),
        ENTRY(MSAL_NA_ERR_NETWORK), ENTRY(MSAL_NA_ERR_BROWSER_REQUIRED), ENTRY(MSAL_NA_ERR_USER_NOT_FOUND),
        ENTRY(MSAL_NA_ERR_INVALID_CREDENTIALS), ENTRY(MSAL_NA_ERR_INVALID_USERNAME), ENTRY(MSAL_NA_ERR_USER_ALREADY_EXISTS),
        ENTRY(MSAL_NA_ERR_INVALID_PASSWORD), ENTRY(MSAL_NA_ERR_USER_DOES_NOT_HAVE_PASSWORD), ENTRY(MSAL_NA_ERR_INVALID_CODE),
        ENTRY(MSAL_NA_ERR_MFA_REQUIRED), ENTRY(MSAL_NA_ERR_REGISTRATION_REQUIRED), ENTRY(MSAL_NA_ERR_REFRESH_TOKEN_EXPIRED),
        ENTRY(MSAL_NA_ERR_INVALID_SCOPE), ENTRY(MSAL_NA_ERR_AUTH_METHOD_BLOCKED), ENTRY(MSAL_NA_ERR_INVALID_INPUT),
        ENTRY(MSAL_NA_ERR_VERIFICATION_CONTACT_BLOCKED), ENTRY(MSAL_NA_ERR_NO_ACCOUNT), ENTRY(MSAL_NA_ERR_CACHE),
        ENTRY(MSAL_NA_ERR_BUFFER_TOO_SMALL), ENTRY(MSAL_NA_ERR_STATE_MALFORMED), ENTRY(MSAL_NA_ERR_STATE_UNSUPPORTED_VERSION),
        ENTRY(MSAL_NA_ERR_STATE_EXPIRED), ENTRY(MSAL_NA_ERR_STATE_WRONG_APPLICATION), ENTRY(MSAL_NA_ERR_STATE_WRONG_KIND),
        ENTRY(MSAL_NA_ERR_STATE_NOT_FOUND),
        ENTRY(MSAL_NA_ERR_USER_CANCELED), ENTRY(MSAL_NA_ERR_NO_BROWSER), ENTRY(MSAL_NA_ERR_BROWSER_SESSION_RUNNING),
        ENTRY(MSAL_NA_ERR_INTERACTION_REQUIRED), ENTRY(MSAL_NA_ERR_DECLINED_SCOPES), ENTRY(MSAL_NA_ERR_KEYRING_UNAVAILABLE),
        ENTRY(MSAL_NA_ERR_KEYRING_LOCKED), ENTRY(MSAL_NA_ERR_REDIS_UNAVAILABLE), ENTRY(MSAL_NA_ERR_INVALID_ATTRIBUTES),
        ENTRY(MSAL_NA_ERR_INTERNAL),
    };
#undef ENTRY
    int named = 0;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) CHECK(strcmp(msal_na_error_name(table[i].code), table[i].name) == 0);
    for (int code = 0; code < 200; code++) named += strcmp(msal_na_error_name(code), "MSAL_NA_ERR_UNKNOWN") != 0;
    CHECK(named == (int)(sizeof table / sizeof *table)); /* and the library has no code the header lacks */
    CHECK(strcmp(msal_na_version(), MSAL_NA_VERSION) == 0);
}

/* Log lines: counted, and checked not to show the password (personal data masked by default). */
static int log_lines = 0, log_leaks = 0;
static void on_log(int level, const char *message, int contains_pii, void *user_data) {
    (void)user_data;
    log_lines += level >= MSAL_NA_LOG_ERROR && level <= MSAL_NA_LOG_VERBOSE;
    log_leaks += contains_pii || strstr(message, "Analytical-Engine-1843") != NULL || strstr(message, "ada@example.com") != NULL;
}

static void logging(msal_na_app *app) {
    CHECK_CODE(msal_na_set_log_callback(5, 0, on_log, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_set_log_callback(-1, 0, on_log, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_set_log_callback(MSAL_NA_LOG_VERBOSE, 2, on_log, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_set_log_callback(MSAL_NA_LOG_VERBOSE, 0, on_log, NULL), MSAL_NA_OK);
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    msal_na_account *account = msal_na_result_take_account(result);
    CHECK(account != NULL);
    CHECK_CODE(msal_na_account_sign_out(account), MSAL_NA_OK);
    msal_na_account_free(account);
    msal_na_result_free(result);
    msal_na_flush_log();
    CHECK(log_lines > 0);
    CHECK(log_leaks == 0);
    CHECK_CODE(msal_na_set_log_callback(MSAL_NA_LOG_VERBOSE, 0, NULL, NULL), MSAL_NA_OK);
    msal_na_flush_log();
    int before = log_lines;
    msal_na_reset_password_wait(app, "nobody@example.com", &result);
    msal_na_result_free(result);
    msal_na_flush_log();
    CHECK(log_lines == before); /* stopped */
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    error_table();
    configuration_errors(argv[1], argv[2]);
    char json[1024];
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", argv[2], argv[1]);
    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    handle_errors(app);
    string_errors();
    state_errors(app);
    callbacks(app);
    concurrent_free(app);
    logging(app);
    CHECK_CODE(msal_na_app_free(app), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_free(app), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(msal_na_sign_in_wait(app, "a@b.c", NULL, NULL, NULL), MSAL_NA_ERR_INVALID_HANDLE);
    return report("bad input test");
}
