/*
 * Native auth V2 (experimental) at the C boundary, against the emulator's V2 journeys: an email-code
 * sign-in (callback form too), a choice of first factors then the password, MFA with a resent
 * code, a phone registered just in time, a sign-up with attributes (and refused ones) then the sign-in after it, a reset then the
 * sign-in after it and with the new password, saved V2 states restored into a second application
 * and continued; then bad input (NULL, a state of the wrong kind, an index out of range, malformed
 * options). Codes come from the emulator's mailbox hook (curl). Built and run by
 * scripts/test-bindings under AddressSanitizer and UndefinedBehaviorSanitizer, then ThreadSanitizer.
 * Usage: v2_test AUTHORITY CLIENT_ID   (a running emulator)
 */
#include <msal_native_auth.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static char base[512], config[1024];

/* The newest code of `purpose` the emulator has sent to `username` (static buffer; "" when none). */
static const char *mailbox_code(const char *username, const char *purpose) {
    static char code[32];
    char command[1024], body[65536];
    code[0] = '\0';
    snprintf(command, sizeof command, "curl -s '%s/_emulator/mailbox?username=%s'", base, username);
    FILE *pipe = popen(command, "r");
    if (!pipe) return code;
    size_t length = fread(body, 1, sizeof body - 1, pipe);
    pclose(pipe);
    body[length] = '\0';
    /* A JSON list of flat objects: take each object's "code" when its "purpose" matches. */
    char wanted[64];
    snprintf(wanted, sizeof wanted, "\"%s\"", purpose);
    for (char *object = strchr(body, '{'); object; object = strchr(object + 1, '{')) {
        char *end = strchr(object, '}');
        if (!end) break;
        *end = '\0';
        char *purpose_at = strstr(object, "\"purpose\"");
        char *code_at = strstr(object, "\"code\"");
        if (purpose_at && code_at && strstr(purpose_at, wanted)) {
            char *value = strchr(code_at + 6, '"');
            if (value) {
                size_t n = strcspn(value + 1, "\"");
                if (n < sizeof code) {
                    memcpy(code, value + 1, n);
                    code[n] = '\0';
                }
            }
        }
        *end = '}';
    }
    return code;
}

static msal_na_app *app_of(const char *json) {
    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    return app;
}

/* Checks the outcome and scenario, takes the state, frees the result. */
static msal_na_state *next_state(msal_na_result *result, int outcome, int scenario) {
    CHECK_CODE(msal_na_result_error(result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == outcome);
    CHECK(msal_na_result_scenario(result) == scenario);
    msal_na_state *state = msal_na_result_take_state(result);
    CHECK(state != NULL);
    CHECK(msal_na_state_scenario(state) == scenario);
    if (msal_na_result_error(result) != MSAL_NA_OK) {
        char *message = msal_na_result_message(result);
        fprintf(stderr, "  result message: %s\n", message ? message : "(none)");
        msal_na_string_free(message);
    }
    msal_na_result_free(result);
    return state;
}

/* A SIGNED_IN result: the account's username is `username`; frees both. */
static void signed_in(msal_na_result *result, const char *username, int scenario) {
    CHECK_CODE(msal_na_result_error(result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_SIGNED_IN);
    CHECK(msal_na_result_scenario(result) == scenario);
    msal_na_account *account = msal_na_result_take_account(result);
    char *name = msal_na_account_username(account);
    CHECK(name != NULL && strcmp(name, username) == 0);
    msal_na_string_free(name);
    msal_na_account_free(account);
    msal_na_result_free(result);
}

static int string_is(char *value, const char *expected) {
    int same = value != NULL && strcmp(value, expected) == 0;
    if (!same) fprintf(stderr, "  got '%s', wanted '%s'\n", value ? value : "(NULL)", expected);
    msal_na_string_free(value);
    return same;
}

/* The callback form: the result handed to the waiting thread. */
struct delivery {
    pthread_mutex_t lock;
    pthread_cond_t done;
    msal_na_result *result;
};

static void deliver(msal_na_result *result, void *user_data) {
    struct delivery *delivery = user_data;
    pthread_mutex_lock(&delivery->lock);
    delivery->result = result;
    pthread_cond_signal(&delivery->done);
    pthread_mutex_unlock(&delivery->lock);
}

static msal_na_result *await(struct delivery *delivery) {
    pthread_mutex_lock(&delivery->lock);
    while (!delivery->result) pthread_cond_wait(&delivery->done, &delivery->lock);
    msal_na_result *result = delivery->result;
    delivery->result = NULL;
    pthread_mutex_unlock(&delivery->lock);
    return result;
}

static void email_code_sign_in(msal_na_app *app) {
    struct delivery delivery = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL};
    CHECK_CODE(msal_na_sign_in_v2(app, "grace@example.com", "{\"scopes\": [\"api://emulator/todolist/ToDoList.Read\"]}", deliver,
                                  &delivery),
               MSAL_NA_OK);
    msal_na_result *result = await(&delivery);
    CHECK(msal_na_result_code_length(result) == 8);
    CHECK(string_is(msal_na_result_channel(result), "email"));
    msal_na_state *state = next_state(result, MSAL_NA_OUTCOME_CODE_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_kind(state) == MSAL_NA_STATE_V2_CODE_REQUIRED);
    char *sent_to = msal_na_state_sent_to(state);
    CHECK(sent_to != NULL && strstr(sent_to, "****") != NULL);
    msal_na_string_free(sent_to);
    CHECK(string_is(msal_na_state_channel(state), "email") && msal_na_state_code_length(state) == 8);
    /* A wrong code leaves the state usable; the right one signs in (the callback form again). */
    CHECK_CODE(msal_na_state_submit_code_wait(state, "00000000", &result), MSAL_NA_ERR_INVALID_CODE);
    CHECK(msal_na_result_scenario(result) == MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_state_submit_code(state, mailbox_code("grace@example.com", "sign_in"), deliver, &delivery), MSAL_NA_OK);
    signed_in(await(&delivery), "grace@example.com", MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_state_free(state);
}

static void first_factor_choice(msal_na_app *app) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "barbara@example.com", NULL, &result), MSAL_NA_OK);
    CHECK(msal_na_result_auth_method_count(result) == 2);
    msal_na_state *selection = next_state(result, MSAL_NA_OUTCOME_AUTH_METHOD_SELECTION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_kind(selection) == MSAL_NA_STATE_V2_AUTH_METHOD_SELECTION_REQUIRED);
    CHECK(msal_na_state_selection_purpose(selection) == MSAL_NA_PURPOSE_FIRST_FACTOR);
    CHECK(msal_na_state_auth_method_count(selection) == 2);
    CHECK(string_is(msal_na_state_auth_method(selection, 0, MSAL_NA_AUTH_METHOD_CHALLENGE_TYPE), "password"));
    CHECK(string_is(msal_na_state_auth_method(selection, 1, MSAL_NA_AUTH_METHOD_CHALLENGE_TYPE), "email"));
    /* An index out of range is refused before anything is sent. */
    result = NULL;
    CHECK_CODE(msal_na_state_select_auth_method_wait(selection, 2, NULL, &result), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(result != NULL && msal_na_result_outcome(result) == MSAL_NA_OUTCOME_ERROR);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_state_select_auth_method_wait(selection, 0, NULL, &result), MSAL_NA_OK);
    msal_na_state *password = next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_kind(password) == MSAL_NA_STATE_V2_PASSWORD_REQUIRED);
    CHECK_CODE(msal_na_state_submit_password_wait(password, "wrong", NULL), MSAL_NA_ERR_INVALID_PASSWORD);
    CHECK_CODE(msal_na_state_submit_password_wait(password, "Substitution-Principle-1987", &result), MSAL_NA_OK);
    signed_in(result, "barbara@example.com", MSAL_NA_SCENARIO_SIGN_IN);
    /* The sign-in is over: the service refuses a second choice on the selection (its token is retired). */
    CHECK_CODE(msal_na_state_select_auth_method_wait(selection, 1, NULL, NULL), MSAL_NA_ERR_GENERAL);
    msal_na_state_free(password);
    msal_na_state_free(selection);
}

static void mfa(msal_na_app *app) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "alan@example.com", NULL, &result), MSAL_NA_OK);
    msal_na_state *password = next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK_CODE(msal_na_state_submit_password_wait(password, "Turing-Machine-1936", &result), MSAL_NA_OK);
    msal_na_state *selection = next_state(result, MSAL_NA_OUTCOME_AUTH_METHOD_SELECTION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_selection_purpose(selection) == MSAL_NA_PURPOSE_MFA);
    size_t email = (size_t)-1;
    for (size_t i = 0; i < msal_na_state_auth_method_count(selection); i++) {
        char *channel = msal_na_state_auth_method(selection, i, MSAL_NA_AUTH_METHOD_CHANNEL);
        if (channel && strcmp(channel, "email") == 0) email = i;
        msal_na_string_free(channel);
    }
    CHECK(email != (size_t)-1);
    CHECK_CODE(msal_na_state_select_auth_method_wait(selection, email, NULL, &result), MSAL_NA_OK);
    CHECK(msal_na_result_code_length(result) == 8);
    msal_na_state *verification = next_state(result, MSAL_NA_OUTCOME_MFA_VERIFICATION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_kind(verification) == MSAL_NA_STATE_V2_MFA_VERIFICATION_REQUIRED);
    /* A wrong code is INVALID_CODE and leaves the state usable; a resend gives a new state. */
    CHECK_CODE(msal_na_state_submit_challenge_wait(verification, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    CHECK_CODE(msal_na_state_resend_challenge_wait(verification, &result), MSAL_NA_OK);
    msal_na_state *resent = next_state(result, MSAL_NA_OUTCOME_MFA_VERIFICATION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK_CODE(msal_na_state_submit_challenge_wait(resent, mailbox_code("alan@example.com", "mfa"), &result), MSAL_NA_OK);
    signed_in(result, "alan@example.com", MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_state_free(resent);
    msal_na_state_free(verification);
    msal_na_state_free(selection);
    msal_na_state_free(password);
}

/* Sign-up of `username` with its attribute from the options, then the sign-in after it; then a
 * second user without the attribute: refused, then accepted on the same state. */
/* A user who must pass MFA and has no method yet (made through the emulator's users hook, so that
 * each sanitizer run has one of its own) registers a phone just in time: a malformed contact is
 * refused, a wrong code leaves the state usable, the right one signs in. */
static void registration(msal_na_app *app) {
    char username[96], command[1024], status[8] = "";
    snprintf(username, sizeof username, "c-jit-%ld-%d@example.com", (long)time(NULL), (int)getpid());
    snprintf(command, sizeof command,
             "curl -s -o /dev/null -w '%%{http_code}' -X POST -H 'Content-Type: application/json' "
             "-d '{\"username\": \"%s\", \"password\": \"Registered-In-C-2026\", \"mfa_required\": true}' '%s/_emulator/users'",
             username, base);
    FILE *pipe = popen(command, "r");
    CHECK(pipe != NULL);
    if (!pipe) return;
    size_t length = fread(status, 1, sizeof status - 1, pipe);
    status[length] = '\0';
    pclose(pipe);
    CHECK(strcmp(status, "201") == 0);

    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_v2_wait(app, username, NULL, &result), MSAL_NA_OK);
    msal_na_state *password = next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK_CODE(msal_na_state_submit_password_wait(password, "Registered-In-C-2026", &result), MSAL_NA_OK);
    msal_na_state *registration = next_state(result, MSAL_NA_OUTCOME_STRONG_AUTH_REGISTRATION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_kind(registration) == MSAL_NA_STATE_V2_STRONG_AUTH_REGISTRATION_REQUIRED);
    int sms = -1;
    for (size_t index = 0; index < msal_na_state_auth_method_count(registration); index++) {
        char *channel = msal_na_state_auth_method(registration, index, MSAL_NA_AUTH_METHOD_CHANNEL);
        if (channel != NULL && strcmp(channel, "sms") == 0) sms = index;
        msal_na_string_free(channel);
    }
    CHECK(sms >= 0);
    CHECK_CODE(msal_na_state_select_auth_method_wait(registration, sms, "555", NULL), MSAL_NA_ERR_INVALID_INPUT);
    CHECK_CODE(msal_na_state_select_auth_method_wait(registration, sms, "+15550123", &result), MSAL_NA_OK);
    msal_na_state *verification = next_state(result, MSAL_NA_OUTCOME_STRONG_AUTH_VERIFICATION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_kind(verification) == MSAL_NA_STATE_V2_STRONG_AUTH_VERIFICATION_REQUIRED);
    CHECK_CODE(msal_na_state_submit_challenge_wait(verification, "000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    CHECK_CODE(msal_na_state_submit_challenge_wait(verification, mailbox_code(username, "registration"), &result), MSAL_NA_OK);
    signed_in(result, username, MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_state_free(verification);
    msal_na_state_free(registration);
    msal_na_state_free(password);
}

static void sign_up(msal_na_app *app, const char *username, const char *password) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_up_v2_wait(app, username, "{\"attributes\": {\"displayName\": \"C Tester\"}}", &result), MSAL_NA_OK);
    msal_na_state *code = next_state(result, MSAL_NA_OUTCOME_CODE_REQUIRED, MSAL_NA_SCENARIO_SIGN_UP);
    CHECK_CODE(msal_na_state_submit_code_wait(code, mailbox_code(username, "sign_up"), &result), MSAL_NA_OK);
    msal_na_state *asked = next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_UP);
    CHECK_CODE(msal_na_state_submit_password_wait(asked, "short", NULL), MSAL_NA_ERR_INVALID_PASSWORD);
    CHECK_CODE(msal_na_state_submit_password_wait(asked, password, &result), MSAL_NA_OK);
    msal_na_state *after = next_state(result, MSAL_NA_OUTCOME_SIGN_UP_COMPLETED, MSAL_NA_SCENARIO_SIGN_UP);
    CHECK(msal_na_state_kind(after) == MSAL_NA_STATE_V2_SIGN_IN_AFTER_SIGN_UP);
    CHECK_CODE(msal_na_state_sign_in_wait(after, "api://emulator/todolist/ToDoList.Read", &result), MSAL_NA_OK);
    signed_in(result, username, MSAL_NA_SCENARIO_SIGN_UP);
    msal_na_state_free(after);
    msal_na_state_free(asked);
    msal_na_state_free(code);

    char other[128];
    snprintf(other, sizeof other, "attributes-%s", username);
    CHECK_CODE(msal_na_sign_up_v2_wait(app, other, NULL, &result), MSAL_NA_OK);
    code = next_state(result, MSAL_NA_OUTCOME_CODE_REQUIRED, MSAL_NA_SCENARIO_SIGN_UP);
    CHECK_CODE(msal_na_state_submit_code_wait(code, mailbox_code(other, "sign_up"), &result), MSAL_NA_OK);
    asked = next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_UP);
    CHECK_CODE(msal_na_state_submit_password_wait(asked, password, &result), MSAL_NA_OK);
    CHECK(msal_na_result_attribute_count(result) == 1);
    msal_na_state *attributes = next_state(result, MSAL_NA_OUTCOME_ATTRIBUTES_REQUIRED, MSAL_NA_SCENARIO_SIGN_UP);
    CHECK(msal_na_state_kind(attributes) == MSAL_NA_STATE_V2_ATTRIBUTES_REQUIRED);
    CHECK(msal_na_state_attribute_count(attributes) == 1);
    CHECK(string_is(msal_na_state_attribute(attributes, 0, MSAL_NA_ATTRIBUTE_NAME), "displayName"));
    CHECK(string_is(msal_na_state_attribute(attributes, 0, MSAL_NA_ATTRIBUTE_REQUIRED), "true"));
    CHECK(msal_na_state_attribute(attributes, 1, MSAL_NA_ATTRIBUTE_NAME) == NULL && message_has("out of range"));
    char refused[128];
    snprintf(refused, sizeof refused, "{\"displayName\": \"%065d\"}", 0);
    CHECK_CODE(msal_na_state_submit_attributes_wait(attributes, refused, &result), MSAL_NA_ERR_INVALID_ATTRIBUTES);
    CHECK(msal_na_result_attribute_count(result) == 1);
    CHECK(string_is(msal_na_result_attribute(result, 0, MSAL_NA_ATTRIBUTE_NAME), "displayName"));
    CHECK(strcmp(msal_na_error_name(MSAL_NA_ERR_INVALID_ATTRIBUTES), "MSAL_NA_ERR_INVALID_ATTRIBUTES") == 0);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_state_submit_attributes_wait(attributes, "{\"displayName\": \"Mae\"}", &result), MSAL_NA_OK);
    msal_na_state_free(next_state(result, MSAL_NA_OUTCOME_SIGN_UP_COMPLETED, MSAL_NA_SCENARIO_SIGN_UP));
    msal_na_state_free(attributes);
    msal_na_state_free(asked);
    msal_na_state_free(code);
}

/* A reset of the user just signed up, the sign-in after it, then a sign-in with the new password. */
static void reset(msal_na_app *app, const char *username, const char *old_password) {
    const char *fresh = "Reset-In-C-2026-Fresh";
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_reset_password_v2_wait(app, username, NULL, &result), MSAL_NA_OK);
    msal_na_state *code = next_state(result, MSAL_NA_OUTCOME_CODE_REQUIRED, MSAL_NA_SCENARIO_PASSWORD_RESET);
    CHECK_CODE(msal_na_state_submit_code_wait(code, mailbox_code(username, "reset_password"), &result), MSAL_NA_OK);
    msal_na_state *new_password = next_state(result, MSAL_NA_OUTCOME_NEW_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_PASSWORD_RESET);
    CHECK(msal_na_state_kind(new_password) == MSAL_NA_STATE_V2_NEW_PASSWORD_REQUIRED);
    CHECK_CODE(msal_na_state_submit_password_wait(new_password, fresh, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_submit_new_password_wait(new_password, old_password, NULL), MSAL_NA_ERR_INVALID_PASSWORD);
    CHECK_CODE(msal_na_state_submit_new_password_wait(new_password, fresh, &result), MSAL_NA_OK);
    msal_na_state *after = next_state(result, MSAL_NA_OUTCOME_RESET_PASSWORD_COMPLETED, MSAL_NA_SCENARIO_PASSWORD_RESET);
    CHECK(msal_na_state_kind(after) == MSAL_NA_STATE_V2_SIGN_IN_AFTER_RESET_PASSWORD);
    CHECK_CODE(msal_na_state_sign_in_wait(after, NULL, &result), MSAL_NA_OK);
    signed_in(result, username, MSAL_NA_SCENARIO_PASSWORD_RESET);
    CHECK_CODE(msal_na_sign_in_v2_wait(app, username, NULL, &result), MSAL_NA_OK);
    msal_na_state *password = next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK(msal_na_state_can_recover_password(password) == 1);
    CHECK_CODE(msal_na_state_submit_password_wait(password, old_password, NULL), MSAL_NA_ERR_INVALID_PASSWORD);
    CHECK_CODE(msal_na_state_submit_password_wait(password, fresh, &result), MSAL_NA_OK);
    signed_in(result, username, MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_state_free(password);
    msal_na_state_free(after);
    msal_na_state_free(new_password);
    msal_na_state_free(code);
}

#include "v2_saved_states.h"

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    emulator_base(argv[1], base, sizeof base);
    snprintf(config, sizeof config, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", argv[2], argv[1]);
    msal_na_app *app = app_of(config), *second = app_of(config);
    char username[96];
    snprintf(username, sizeof username, "v2c-%ld-%ld@example.com", (long)getpid(), (long)time(NULL));
    email_code_sign_in(app);
    first_factor_choice(app);
    mfa(app);
    registration(app);
    sign_up(app, username, "Signed-Up-In-C-2026");
    reset(app, username, "Signed-Up-In-C-2026");
    saved_states(app, second);
    bad_input(app);
    msal_na_app_free(second);
    msal_na_app_free(app);
    return report("v2 test");
}
