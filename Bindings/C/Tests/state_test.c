/*
 * Saved flow states at the C boundary, against the emulator: round trips that finish the flow
 * (a password step to a signed-in account, MFA through a restored state, sign-up and reset
 * steps), restored into a second application object; then bad input: every truncation, garbage,
 * huge input, invalid UTF-8, another application, a newer version, an expired token, the wrong
 * expected kind, freed handles; and threads restoring at once. Built and run by scripts/test-bindings
 * under AddressSanitizer and UndefinedBehaviorSanitizer, then ThreadSanitizer.
 * Usage: state_test AUTHORITY CLIENT_ID   (a running emulator)
 */
#include <msal_native_auth.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static char config[1024], other_client[1024], other_authority[1024];

static msal_na_app *app_of(const char *json) {
    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    return app;
}

/* Runs a step that yields a state; returns the state (caller frees), checks the outcome. */
static msal_na_state *state_of(msal_na_result *result, int outcome) {
    CHECK(msal_na_result_outcome(result) == outcome);
    msal_na_state *state = msal_na_result_take_state(result);
    CHECK(state != NULL);
    msal_na_result_free(result);
    return state;
}

/* Saves `state`, restores it in `into`, checks the kind, frees the original. */
static msal_na_state *round_trip(msal_na_state *state, msal_na_app *into) {
    int kind = msal_na_state_kind(state);
    char *saved = msal_na_state_save(state);
    CHECK(saved != NULL && strstr(saved, "\"format\":\"msal-native-auth-flow-state\"") != NULL);
    msal_na_state *restored = NULL;
    CHECK_CODE(msal_na_app_restore_state(into, saved, 0, &restored), MSAL_NA_OK);
    CHECK(restored != NULL && restored != state && msal_na_state_kind(restored) == kind);
    msal_na_string_free(saved);
    msal_na_state_free(state);
    return restored;
}

static void round_trips(msal_na_app *app, msal_na_app *second) {
    msal_na_result *result = NULL;
    /* Sign-in, password step: restored in another application object, it signs in. */
    msal_na_sign_in_wait(app, "ada@example.com", NULL, NULL, &result);
    msal_na_state *state = round_trip(state_of(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED), second);
    CHECK(msal_na_state_kind(state) == MSAL_NA_STATE_SIGN_IN_PASSWORD_REQUIRED);
    CHECK_CODE(msal_na_state_submit_password_wait(state, "wrong", NULL), MSAL_NA_ERR_INVALID_CREDENTIALS);
    CHECK_CODE(msal_na_state_submit_password_wait(state, "Analytical-Engine-1843", &result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_SIGNED_IN);
    msal_na_account *account = msal_na_result_take_account(result);
    char *username = msal_na_account_username(account);
    CHECK(username && strcmp(username, "ada@example.com") == 0);
    msal_na_string_free(username);
    msal_na_account_free(account);
    msal_na_result_free(result);
    msal_na_state_free(state);

    /* Sign-in, code step: the restored state is the service's (a wrong code is refused as such,
     * a resend gives a new state). */
    msal_na_sign_in_wait(app, "grace@example.com", NULL, NULL, &result);
    state = round_trip(state_of(result, MSAL_NA_OUTCOME_CODE_REQUIRED), second);
    CHECK_CODE(msal_na_state_submit_code_wait(state, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    CHECK_CODE(msal_na_state_resend_code_wait(state, &result), MSAL_NA_OK);
    msal_na_state_free(state_of(result, MSAL_NA_OUTCOME_CODE_REQUIRED));
    msal_na_state_free(state);

    /* MFA: the restored state still has the offered methods; a challenge to one, restored again. */
    msal_na_sign_in_wait(app, "alan@example.com", "Turing-Machine-1936", NULL, &result);
    size_t offered = msal_na_result_auth_method_count(result);
    state = round_trip(state_of(result, MSAL_NA_OUTCOME_MFA_REQUIRED), second);
    CHECK(msal_na_state_kind(state) == MSAL_NA_STATE_AWAITING_MFA);
    CHECK(offered == 2 && msal_na_state_auth_method_count(state) == offered);
    char *id = msal_na_state_auth_method(state, 0, MSAL_NA_AUTH_METHOD_ID);
    char *channel = msal_na_state_auth_method(state, 1, MSAL_NA_AUTH_METHOD_CHANNEL);
    CHECK(id != NULL && channel != NULL && (strcmp(channel, "sms") == 0 || strcmp(channel, "email") == 0));
    CHECK(msal_na_state_auth_method(state, 2, MSAL_NA_AUTH_METHOD_ID) == NULL);
    CHECK(message_has("out of range"));
    CHECK(msal_na_state_auth_method(state, 0, 9) == NULL);
    CHECK_CODE(msal_na_state_request_challenge_wait(state, id, &result), MSAL_NA_OK);
    msal_na_state *mfa = round_trip(state_of(result, MSAL_NA_OUTCOME_CODE_REQUIRED), app);
    CHECK(msal_na_state_kind(mfa) == MSAL_NA_STATE_MFA_REQUIRED && msal_na_state_auth_method_count(mfa) == offered);
    CHECK_CODE(msal_na_state_submit_code_wait(mfa, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    msal_na_string_free(id);
    msal_na_string_free(channel);
    msal_na_state_free(mfa);
    msal_na_state_free(state);

    /* Reset and sign-up first steps: kinds kept, the service takes the restored tokens. */
    msal_na_reset_password_wait(app, "ada@example.com", &result);
    state = round_trip(state_of(result, MSAL_NA_OUTCOME_CODE_REQUIRED), second);
    CHECK(msal_na_state_kind(state) == MSAL_NA_STATE_RESET_PASSWORD_CODE_REQUIRED);
    CHECK_CODE(msal_na_state_submit_code_wait(state, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    msal_na_state_free(state);
    msal_na_sign_up_wait(app, "state-test@example.com", "Correct-Horse-Battery-9", "{\"displayName\": \"S\"}", &result);
    state = round_trip(state_of(result, MSAL_NA_OUTCOME_CODE_REQUIRED), second);
    CHECK(msal_na_state_kind(state) == MSAL_NA_STATE_SIGN_UP_CODE_REQUIRED);
    CHECK_CODE(msal_na_state_submit_code_wait(state, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    /* expected_kind: the saved kind is accepted, another refused. */
    char *saved = msal_na_state_save(state);
    msal_na_state *typed = NULL;
    CHECK_CODE(msal_na_app_restore_state(app, saved, MSAL_NA_STATE_SIGN_UP_CODE_REQUIRED, &typed), MSAL_NA_OK);
    CHECK(typed != NULL);
    msal_na_state_free(typed);
    typed = (msal_na_state *)0x1;
    CHECK_CODE(msal_na_app_restore_state(app, saved, MSAL_NA_STATE_SIGN_IN_CODE_REQUIRED, &typed), MSAL_NA_ERR_STATE_WRONG_KIND);
    CHECK(typed == NULL && message_has("kind"));
    CHECK_CODE(msal_na_app_restore_state(app, saved, 99, &typed), MSAL_NA_ERR_INVALID_ARGUMENT);
    msal_na_string_free(saved);
    msal_na_state_free(state);
}

/* A copy of `saved` with the first `"member":NUMBER` replaced by `"member":value`. */
static char *with_number(const char *saved, const char *member, long long value) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", member);
    const char *at = strstr(saved, key);
    CHECK(at != NULL);
    if (!at) return strdup(saved);
    const char *end = at + strlen(key);
    while (*end == '-' || (*end >= '0' && *end <= '9')) end++;
    size_t size = strlen(saved) + 32;
    char *copy = malloc(size);
    snprintf(copy, size, "%.*s%s%lld%s", (int)(at - saved), saved, key, value, end);
    return copy;
}

static int restore_code(msal_na_app *app, const char *saved) {
    msal_na_state *state = (msal_na_state *)0x1;
    int code = msal_na_app_restore_state(app, saved, 0, &state);
    if (code != MSAL_NA_OK) CHECK(state == NULL); /* cleared on failure */
    if (state) msal_na_state_free(state);
    return code;
}

static void bad_input(msal_na_app *app) {
    msal_na_result *result = NULL;
    msal_na_sign_in_wait(app, "grace@example.com", NULL, NULL, &result);
    msal_na_state *state = state_of(result, MSAL_NA_OUTCOME_CODE_REQUIRED);
    char *saved = msal_na_state_save(state);
    size_t length = strlen(saved);
    CHECK_CODE(restore_code(app, saved), MSAL_NA_OK);
    /* Every truncation. */
    char *cut = malloc(length + 1);
    int malformed = 0;
    for (size_t keep = 0; keep < length; keep++) {
        memcpy(cut, saved, keep);
        cut[keep] = '\0';
        malformed += restore_code(app, cut) == MSAL_NA_ERR_STATE_MALFORMED;
    }
    CHECK(malformed == (int)length);
    free(cut);
    /* Garbage, arrays, other JSON, another format. */
    const char *garbage[] = {"", "not json", "{}", "[]", "null", "42", "{\"format\": 1}", "{\"format\": \"something-else\", \"version\": 1}",
                             "\x01\x02\x03", "{\"format\":\"msal-native-auth-flow-state\",\"version\":1}"};
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) CHECK_CODE(restore_code(app, garbage[i]), MSAL_NA_ERR_STATE_MALFORMED);
    CHECK(message_has("Cannot restore the flow state"));
    /* Huge: the saved document padded past 64 KiB, and 4 MB of letters. */
    size_t huge_size = 4 * 1024 * 1024;
    char *huge = malloc(huge_size + 1);
    memset(huge, ' ', huge_size);
    memcpy(huge, saved, length);
    huge[70 * 1024] = '\0';
    CHECK_CODE(restore_code(app, huge), MSAL_NA_ERR_STATE_MALFORMED);
    memset(huge, 'a', huge_size);
    huge[huge_size] = '\0';
    CHECK_CODE(restore_code(app, huge), MSAL_NA_ERR_STATE_MALFORMED);
    free(huge);
    /* Invalid UTF-8, NULLs, handles that are not an application, a bad expected kind. */
    CHECK_CODE(restore_code(app, "{\"format\": \"\xff\"}"), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(restore_code(app, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_restore_state(app, saved, 0, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(restore_code(NULL, saved), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(restore_code((msal_na_app *)0x1234, saved), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(restore_code((msal_na_app *)state, saved), MSAL_NA_ERR_INVALID_HANDLE);
    msal_na_state *unused = NULL;
    CHECK_CODE(msal_na_app_restore_state(app, saved, -1, &unused), MSAL_NA_ERR_INVALID_ARGUMENT);
    /* Another client id; another authority. */
    msal_na_app *other = app_of(other_client);
    CHECK_CODE(restore_code(other, saved), MSAL_NA_ERR_STATE_WRONG_APPLICATION);
    msal_na_app_free(other);
    other = app_of(other_authority);
    CHECK_CODE(restore_code(other, saved), MSAL_NA_ERR_STATE_WRONG_APPLICATION);
    msal_na_app_free(other);
    /* A newer format version than any this library writes; version 2 (native auth V2) with a V1
       kind, which is no V2 document; an older version that never existed. */
    char *edited = with_number(saved, "version", 3);
    CHECK_CODE(restore_code(app, edited), MSAL_NA_ERR_STATE_UNSUPPORTED_VERSION);
    free(edited);
    edited = with_number(saved, "version", 2);
    CHECK_CODE(restore_code(app, edited), MSAL_NA_ERR_STATE_MALFORMED);
    free(edited);
    edited = with_number(saved, "version", 0);
    CHECK_CODE(restore_code(app, edited), MSAL_NA_ERR_STATE_MALFORMED);
    free(edited);
    /* Issued 11 minutes ago: expired; 9 minutes ago: still good. */
    const char *issued = strstr(saved, "\"issuedAt\":");
    long long at = issued ? strtoll(issued + strlen("\"issuedAt\":"), NULL, 10) : 0;
    CHECK(at > 1700000000);
    edited = with_number(saved, "issuedAt", at - 660);
    CHECK_CODE(restore_code(app, edited), MSAL_NA_ERR_STATE_EXPIRED);
    CHECK(message_has("10 minutes"));
    free(edited);
    edited = with_number(saved, "issuedAt", at - 540);
    CHECK_CODE(restore_code(app, edited), MSAL_NA_OK);
    free(edited);
    /* Saving what is not a live state. */
    CHECK(msal_na_state_save(NULL) == NULL);
    CHECK(msal_na_state_save((msal_na_state *)app) == NULL && message_has("another kind"));
    CHECK_CODE(msal_na_state_free(state), MSAL_NA_OK);
    CHECK(msal_na_state_save(state) == NULL && message_has("not a live handle"));
    CHECK(msal_na_state_auth_method_count(state) == 0);
    /* The saved string is ours to free once. */
    CHECK_CODE(msal_na_string_free(saved), MSAL_NA_OK);
    CHECK_CODE(msal_na_string_free(saved), MSAL_NA_ERR_INVALID_HANDLE);
}

/* Four threads restore one saved state and save it again at once: the same document each time. */
struct shared_state {
    msal_na_app *app;
    const char *saved;
};

static int restore_many(void *argument) {
    struct shared_state *shared = argument;
    int failures = 0;
    for (int i = 0; i < 50; i++) {
        msal_na_state *state = NULL;
        if (msal_na_app_restore_state(shared->app, shared->saved, 0, &state) != MSAL_NA_OK) failures++;
        char *again = msal_na_state_save(state);
        if (!again || strcmp(again, shared->saved) != 0) failures++;
        msal_na_string_free(again);
        msal_na_state_free(state);
    }
    return failures;
}

static void threads(msal_na_app *app) {
    msal_na_result *result = NULL;
    msal_na_sign_in_wait(app, "alan@example.com", "Turing-Machine-1936", NULL, &result);
    msal_na_state *state = state_of(result, MSAL_NA_OUTCOME_MFA_REQUIRED);
    char *saved = msal_na_state_save(state);
    struct shared_state shared = {app, saved};
    CHECK(sum_on_threads(4, restore_many, &shared) == 0);
    msal_na_string_free(saved);
    msal_na_state_free(state);
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    const char *shape = "{\"client_id\": \"%s\", \"authority\": \"%s%s\", \"cache\": \"memory\"}";
    snprintf(config, sizeof config, shape, argv[2], argv[1], "");
    snprintf(other_client, sizeof other_client, shape, "22222222-2222-4222-8222-222222222222", argv[1], "");
    /* Another tenant's authority on the same host: a different application to the SDK. */
    const char *tenant = strrchr(argv[1], '/');
    snprintf(other_authority, sizeof other_authority, "{\"client_id\": \"%s\", \"authority\": \"%.*s/other.onmicrosoft.com\", "
             "\"cache\": \"memory\"}", argv[2], tenant ? (int)(tenant - argv[1]) : 0, argv[1]);
    msal_na_app *app = app_of(config), *second = app_of(config);
    round_trips(app, second);
    bad_input(app);
    threads(app);
    msal_na_app_free(second);
    msal_na_app_free(app);
    return report("state test");
}
