/*
 * redis_test.c's saved sign-ins on Redis (msal_na_app_redis_save_state, _take_state): a state saved
 * by one application and taken once by another, which signs in with it; taken again, after a wrong
 * expected kind, by four threads at once, tampered with in Redis; bad arguments, an application
 * without Redis, and a server that is down. Included once, by redis_test.c, after its helpers
 * (config_with, redis_body, message_keeps_secrets, port): one translation unit, built and run as before.
 */
#ifndef MSAL_NA_REDIS_SAVED_SIGN_INS_H
#define MSAL_NA_REDIS_SAVED_SIGN_INS_H

/* `<prefix>signin:{<id>}` set to `value` with redis-cli. */
static void redis_set_sign_in(const char *prefix, const char *id, const char *value) {
    char command[1024];
    snprintf(command, sizeof command, "redis-cli -p %d -a %s --no-auth-warning SET '%ssignin:{%s}' '%s' >/dev/null", port, PASSWORD,
             prefix, id, value);
    CHECK(system(command) == 0);
}

static msal_na_state *password_step(msal_na_app *app) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", NULL, NULL, &result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_PASSWORD_REQUIRED);
    msal_na_state *state = msal_na_result_take_state(result);
    msal_na_result_free(result);
    return state;
}

static int take_code(msal_na_app *app, const char *id, int expected_kind) {
    msal_na_state *state = (msal_na_state *)0x1;
    int code = msal_na_app_redis_take_state(app, id, expected_kind, &state);
    if (code != MSAL_NA_OK) CHECK(state == NULL);
    if (state) msal_na_state_free(state);
    return code;
}

struct race {
    msal_na_app *app;
    const char *id;
};

/* 1 when this thread took the state (no CHECK here: only the main thread counts checks). */
static int take_once(void *argument) {
    struct race *race = argument;
    msal_na_state *state = NULL;
    int took = msal_na_app_redis_take_state(race->app, race->id, 0, &state) == MSAL_NA_OK && state != NULL;
    if (state) msal_na_state_free(state);
    return took;
}

/* A state saved in Redis by one application is taken by another, which signs in with it; a second
 * take, a take after a wrong expected kind, an unknown id are MSAL_NA_ERR_STATE_NOT_FOUND; of four
 * threads taking one id at once, one gets it; a value that is not a saved state is _MALFORMED. */
static void saved_sign_ins(void) {
    char json[4096];
    snprintf(json, sizeof json, "%s", config_with(redis_body("password", "signins:", "")));
    msal_na_app *saver = app_of(json), *taker = app_of(json);
    msal_na_state *state = password_step(saver);
    char *id = NULL;
    CHECK_CODE(msal_na_app_redis_save_state(saver, state, &id), MSAL_NA_OK);
    CHECK(id != NULL && strlen(id) == 32 && strspn(id, "0123456789abcdef") == 32);
    msal_na_state *taken = NULL;
    CHECK_CODE(msal_na_app_redis_take_state(taker, id, MSAL_NA_STATE_SIGN_IN_PASSWORD_REQUIRED, &taken), MSAL_NA_OK);
    CHECK(taken != NULL && msal_na_state_kind(taken) == MSAL_NA_STATE_SIGN_IN_PASSWORD_REQUIRED);
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_state_submit_password_wait(taken, "Analytical-Engine-1843", &result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_SIGNED_IN);
    msal_na_account *account = msal_na_result_take_account(result);
    msal_na_result_free(result);
    /* Once only, whichever app asks; the message names neither the id nor the state. */
    CHECK_CODE(take_code(taker, id, 0), MSAL_NA_ERR_STATE_NOT_FOUND);
    CHECK(message_has("already taken"));
    char *message = msal_na_last_error_message();
    CHECK(message && !strstr(message, id));
    msal_na_string_free(message);
    CHECK_CODE(take_code(saver, id, 0), MSAL_NA_ERR_STATE_NOT_FOUND);
    CHECK_CODE(take_code(taker, "0123456789abcdef0123456789abcdef", 0), MSAL_NA_ERR_STATE_NOT_FOUND);
    CHECK_CODE(take_code(taker, "not an id", 0), MSAL_NA_ERR_STATE_NOT_FOUND);
    msal_na_string_free(id);

    /* Refused for its kind: taken all the same. */
    CHECK_CODE(msal_na_app_redis_save_state(saver, state, &id), MSAL_NA_OK);
    CHECK_CODE(take_code(taker, id, MSAL_NA_STATE_SIGN_IN_CODE_REQUIRED), MSAL_NA_ERR_STATE_WRONG_KIND);
    CHECK_CODE(take_code(taker, id, 0), MSAL_NA_ERR_STATE_NOT_FOUND);
    msal_na_string_free(id);

    /* Four threads, one id: one state. */
    CHECK_CODE(msal_na_app_redis_save_state(saver, state, &id), MSAL_NA_OK);
    struct race race = {taker, id};
    CHECK(sum_on_threads(4, take_once, &race) == 1);
    msal_na_string_free(id);

    /* What Redis holds under an id is not a saved state. */
    CHECK_CODE(msal_na_app_redis_save_state(saver, state, &id), MSAL_NA_OK);
    redis_set_sign_in("signins:", id, "not a saved state");
    CHECK_CODE(take_code(taker, id, 0), MSAL_NA_ERR_STATE_MALFORMED);
    msal_na_string_free(id);

    /* Bad arguments, and an application without Redis. */
    CHECK_CODE(msal_na_app_redis_save_state(saver, state, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_redis_save_state(saver, (msal_na_state *)saver, &id), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(id == NULL);
    CHECK_CODE(take_code(taker, NULL, 0), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(take_code(taker, "0123456789abcdef0123456789abcdef", 99), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_redis_take_state(taker, "0123456789abcdef0123456789abcdef", 0, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    char memory[1024];
    snprintf(memory, sizeof memory, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", client_id, authority);
    msal_na_app *plain = app_of(memory);
    CHECK_CODE(msal_na_app_redis_save_state(plain, state, &id), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("\"saved_sign_ins\": \"redis\""));
    CHECK_CODE(take_code(plain, "0123456789abcdef0123456789abcdef", 0), MSAL_NA_ERR_INVALID_ARGUMENT);
    msal_na_app_free(plain);

    msal_na_account_sign_out(account);
    msal_na_account_free(account);
    msal_na_state_free(taken);
    msal_na_state_free(state);
    msal_na_app_free(taker);
    msal_na_app_free(saver);
}

/* An application made while the server was up, and a state of it: saved once the server is down. */
static msal_na_app *late_app;
static msal_na_state *late_state;

static void save_when_down(void) {
    char *id = NULL;
    char place[64];
    snprintf(place, sizeof place, "127.0.0.1:%d", port);
    CHECK_CODE(msal_na_app_redis_save_state(late_app, late_state, &id), MSAL_NA_ERR_REDIS_UNAVAILABLE);
    CHECK(id == NULL && message_has(place) && message_keeps_secrets());
    CHECK_CODE(take_code(late_app, "0123456789abcdef0123456789abcdef", 0), MSAL_NA_ERR_REDIS_UNAVAILABLE);
    msal_na_state_free(late_state);
    msal_na_app_free(late_app);
}

#endif
