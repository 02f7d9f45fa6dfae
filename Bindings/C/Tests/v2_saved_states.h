/*
 * v2_test.c's saved states and bad input, by topic: V2 states saved, restored into a second
 * application and continued; then NULL, a state of the wrong kind, an index out of range and
 * malformed options. Included once, by v2_test.c, after its helpers (next_state, signed_in,
 * mailbox_code, ...): one translation unit, built and run as before.
 */
#ifndef MSAL_NA_V2_SAVED_STATES_H
#define MSAL_NA_V2_SAVED_STATES_H

/* Saves `state`, restores it into `into` (expected_kind: its own kind), frees the original. */
static msal_na_state *round_trip(msal_na_state *state, msal_na_app *into) {
    int kind = msal_na_state_kind(state);
    char *saved = msal_na_state_save(state);
    CHECK(saved != NULL && strstr(saved, "\"version\":2") != NULL);
    msal_na_state *restored = NULL;
    CHECK_CODE(msal_na_app_restore_state(into, saved, kind, &restored), MSAL_NA_OK);
    CHECK(restored != NULL && msal_na_state_kind(restored) == kind);
    CHECK(msal_na_state_scenario(restored) == msal_na_state_scenario(state));
    /* A V2 document is not of a V1 kind. */
    msal_na_state *other = NULL;
    CHECK_CODE(msal_na_app_restore_state(into, saved, MSAL_NA_STATE_SIGN_IN_CODE_REQUIRED, &other), MSAL_NA_ERR_STATE_WRONG_KIND);
    CHECK(other == NULL);
    msal_na_string_free(saved);
    msal_na_state_free(state);
    return restored;
}

static void saved_states(msal_na_app *app, msal_na_app *second) {
    msal_na_result *result = NULL;
    /* A code step, restored in another application object, takes the code the original was sent. */
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "grace@example.com", NULL, &result), MSAL_NA_OK);
    msal_na_state *code = round_trip(next_state(result, MSAL_NA_OUTCOME_CODE_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN), second);
    CHECK(msal_na_state_kind(code) == MSAL_NA_STATE_V2_CODE_REQUIRED && msal_na_state_code_length(code) == 8);
    CHECK(string_is(msal_na_state_channel(code), "email"));
    CHECK_CODE(msal_na_state_submit_code_wait(code, "00000000", NULL), MSAL_NA_ERR_INVALID_CODE);
    CHECK_CODE(msal_na_state_submit_code_wait(code, mailbox_code("grace@example.com", "sign_in"), &result), MSAL_NA_OK);
    signed_in(result, "grace@example.com", MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_state_free(code);

    /* A selection keeps its methods and purpose; the restored one goes on to the password. */
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "barbara@example.com", NULL, &result), MSAL_NA_OK);
    msal_na_state *selection =
        round_trip(next_state(result, MSAL_NA_OUTCOME_AUTH_METHOD_SELECTION_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN), second);
    CHECK(msal_na_state_selection_purpose(selection) == MSAL_NA_PURPOSE_FIRST_FACTOR);
    CHECK(msal_na_state_auth_method_count(selection) == 2);
    CHECK(string_is(msal_na_state_auth_method(selection, 0, MSAL_NA_AUTH_METHOD_CHALLENGE_TYPE), "password"));
    CHECK_CODE(msal_na_state_select_auth_method_wait(selection, 0, NULL, &result), MSAL_NA_OK);
    msal_na_state *password = round_trip(next_state(result, MSAL_NA_OUTCOME_PASSWORD_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN), app);
    CHECK_CODE(msal_na_state_submit_password_wait(password, "Substitution-Principle-1987", &result), MSAL_NA_OK);
    signed_in(result, "barbara@example.com", MSAL_NA_SCENARIO_SIGN_IN);
    msal_na_state_free(password);
    msal_na_state_free(selection);
}

static void bad_input(msal_na_app *app) {
    msal_na_result *result = (msal_na_result *)0x1;
    /* NULL where not allowed; *out always receives a result to free. */
    CHECK_CODE(msal_na_sign_in_v2_wait(NULL, "grace@example.com", NULL, &result), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(result != NULL && msal_na_result_outcome(result) == MSAL_NA_OUTCOME_ERROR);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_sign_up_v2_wait(app, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("username"));
    CHECK_CODE(msal_na_reset_password_v2(app, "ada@example.com", NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "\xff\xfe", NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    /* Malformed options: not JSON, not an object, a field the call does not take, a wrong type. */
    const char *malformed[] = {"{", "[]", "{\"password\": \"x\"}", "{\"attributes\": {}}", "{\"scopes\": 5}",
                               "{\"correlation_id\": \"not-a-uuid\"}", "{\"claims\": 5}"};
    for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
        CHECK_CODE(msal_na_sign_in_v2_wait(app, "grace@example.com", malformed[i], NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    }
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "grace@example.com", "{\"password\": \"x\"}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("unknown field 'password'"));
    CHECK_CODE(msal_na_sign_up_v2_wait(app, "x@example.com", "{\"attributes\": []}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("'attributes'"));
    CHECK_CODE(msal_na_reset_password_v2_wait(app, "ada@example.com", "{\"attributes\": {}}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    /* Service errors: an unknown user, a user who must use the browser. */
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "nobody-v2@example.com", NULL, NULL), MSAL_NA_ERR_USER_NOT_FOUND);
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "hedy@example.com", NULL, NULL), MSAL_NA_ERR_BROWSER_REQUIRED);
    CHECK_CODE(msal_na_reset_password_v2_wait(app, "grace@example.com", NULL, NULL), MSAL_NA_ERR_USER_DOES_NOT_HAVE_PASSWORD);

    /* A state of the wrong kind for each operation: nothing is sent. */
    CHECK_CODE(msal_na_sign_in_v2_wait(app, "grace@example.com", NULL, &result), MSAL_NA_OK);
    msal_na_state *code = next_state(result, MSAL_NA_OUTCOME_CODE_REQUIRED, MSAL_NA_SCENARIO_SIGN_IN);
    CHECK_CODE(msal_na_state_submit_challenge_wait(code, "12345678", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK(message_has("msal_na_state_submit_challenge"));
    CHECK_CODE(msal_na_state_resend_challenge_wait(code, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_select_auth_method_wait(code, 0, NULL, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_submit_new_password_wait(code, "x", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_recover_password_wait(code, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_submit_password_wait(code, "x", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_submit_attributes_wait(code, "{}", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_sign_in_wait(code, NULL, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_request_challenge_wait(code, "email", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_submit_code_wait(code, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(msal_na_state_selection_purpose(code) == MSAL_NA_PURPOSE_NONE && msal_na_state_attribute_count(code) == 0);
    CHECK(msal_na_state_auth_method_count(code) == 0 && msal_na_state_can_recover_password(code) == 0);
    /* A V1 state takes no V2-only operation, and shows no V2 data. */
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", NULL, NULL, &result), MSAL_NA_OK);
    msal_na_state *v1 = msal_na_result_take_state(result);
    CHECK(msal_na_result_scenario(result) == MSAL_NA_SCENARIO_UNKNOWN);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_state_submit_new_password_wait(v1, "x", NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK_CODE(msal_na_state_select_auth_method_wait(v1, 0, NULL, NULL), MSAL_NA_ERR_WRONG_STATE);
    CHECK(msal_na_state_scenario(v1) == MSAL_NA_SCENARIO_UNKNOWN && msal_na_state_sent_to(v1) == NULL);
    msal_na_state_free(v1);
    /* NULL and freed states. */
    CHECK_CODE(msal_na_state_select_auth_method_wait(NULL, 0, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_state_submit_challenge_wait(NULL, "1", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    msal_na_state_free(code);
    CHECK_CODE(msal_na_state_submit_code_wait(code, "12345678", NULL), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(msal_na_state_resend_challenge_wait(code, NULL), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(msal_na_state_scenario(code) == 0 && msal_na_state_code_length(code) == 0 && msal_na_state_sent_to(code) == NULL);
    CHECK(msal_na_state_attribute(code, 0, 0) == NULL && message_has("not a live handle"));
    CHECK(msal_na_result_scenario(NULL) == 0);
}

#endif
