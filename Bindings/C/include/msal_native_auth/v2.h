/*
 * msal_native_auth/v2.h: native auth V2 (experimental).
 *
 * Part of the C interface of MSAL native authentication for Linux. Include <msal_native_auth.h>,
 * which includes every part: the rules at its top (ownership, threads, callbacks, errors) hold here.
 */
#ifndef MSAL_NATIVE_AUTH_V2_H
#define MSAL_NATIVE_AUTH_V2_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================================================
 * Native auth V2 (experimental: it may change without notice; do not use it in production)
 *
 * The service-driven flows of the Swift SDK's signInV2 / signUpV2 / resetPasswordV2 (the
 * repository's docs/usage.md, "Native auth V2"): the service decides each step (a choice of
 * methods, a second factor, registering one, a new password) and the application answers the step
 * it is shown. The rules at the top of msal_native_auth.h hold here too.
 *
 * Results: the msal_na_outcome values V1 has (SIGNED_IN, CODE_REQUIRED with sent_to/channel/
 * code_length, PASSWORD_REQUIRED, ATTRIBUTES_REQUIRED with the attributes, SIGN_UP_COMPLETED and
 * RESET_PASSWORD_COMPLETED: then msal_na_state_sign_in) and 11 to 15 (types.h); the state is of a
 * MSAL_NA_STATE_V2_* kind. msal_na_result_scenario says which flow the result belongs to: a reset
 * that ends in SIGNED_IN after an MFA step inside a sign-in, say.
 *
 * Errors: the numbers V1 gives the same situation: USER_NOT_FOUND, INVALID_USERNAME, INVALID_CODE
 * (also a wrong MFA or registration code), INVALID_PASSWORD (also a wrong sign-in password: V2
 * has no INVALID_CREDENTIALS), USER_ALREADY_EXISTS, USER_DOES_NOT_HAVE_PASSWORD, AUTH_METHOD_BLOCKED
 * (pick another method), INVALID_INPUT and VERIFICATION_CONTACT_BLOCKED (registration contact),
 * BROWSER_REQUIRED, NETWORK, GENERAL; and INVALID_ATTRIBUTES: msal_na_result_attribute_count /
 * msal_na_result_attribute(…, MSAL_NA_ATTRIBUTE_NAME) name the refused attributes. After a wrong
 * code, password, attribute or a blocked method the same state takes another try.
 * ================================================================================================ */

/* msal_na_result_scenario, msal_na_state_scenario: MSAL's MSALNativeAuthFlowScenario values. */
typedef enum msal_na_scenario {
    MSAL_NA_SCENARIO_UNKNOWN = 0,        /* a V1 result or state, an argument error */
    MSAL_NA_SCENARIO_SIGN_UP = 1,
    MSAL_NA_SCENARIO_SIGN_IN = 2,
    MSAL_NA_SCENARIO_PASSWORD_RESET = 3
} msal_na_scenario;

/* msal_na_state_selection_purpose: why a V2 selection state asks. */
typedef enum msal_na_selection_purpose {
    MSAL_NA_PURPOSE_NONE = 0,            /* not a selection state */
    MSAL_NA_PURPOSE_FIRST_FACTOR = 1,    /* several first factors (password, email code) */
    MSAL_NA_PURPOSE_MFA = 2,             /* a second factor: always a choice, even of one */
    MSAL_NA_PURPOSE_RECOVERY = 3,        /* a password reset's recovery methods */
    MSAL_NA_PURPOSE_EXISTING_ACCOUNT = 4, /* a sign-up found an existing account */
    MSAL_NA_PURPOSE_REGISTRATION = 5     /* STRONG_AUTH_REGISTRATION_REQUIRED: a method to register */
} msal_na_selection_purpose;

/*
 * The starts. options_json (NULL or "" for none; the rules of "Request options" in standard.h):
 *   "scopes", "claims", "correlation_id"; and for sign-up "attributes": {"displayName": "Ada"}
 *   (offered when the service asks for them; "email" and "password" are ignored).
 * There is no password argument: the service asks for it (PASSWORD_REQUIRED).
 */
msal_na_error msal_na_sign_in_v2(msal_na_app *app, const char *username, const char *options_json, msal_na_callback callback,
                                 void *user_data);
msal_na_error msal_na_sign_in_v2_wait(msal_na_app *app, const char *username, const char *options_json, msal_na_result **out);
msal_na_error msal_na_sign_up_v2(msal_na_app *app, const char *username, const char *options_json, msal_na_callback callback,
                                 void *user_data);
msal_na_error msal_na_sign_up_v2_wait(msal_na_app *app, const char *username, const char *options_json, msal_na_result **out);
msal_na_error msal_na_reset_password_v2(msal_na_app *app, const char *username, const char *options_json,
                                        msal_na_callback callback, void *user_data);
msal_na_error msal_na_reset_password_v2_wait(msal_na_app *app, const char *username, const char *options_json,
                                             msal_na_result **out);

/*
 * The steps. The V1 functions take the V2 states of their kind: msal_na_state_submit_code and
 * _resend_code on V2_CODE_REQUIRED, _submit_password on V2_PASSWORD_REQUIRED, _submit_attributes on
 * V2_ATTRIBUTES_REQUIRED, _sign_in on V2_SIGN_IN_AFTER_SIGN_UP / _RESET_PASSWORD. Those below are
 * V2's own. Another kind: MSAL_NA_ERR_WRONG_STATE.
 */
/* On V2_NEW_PASSWORD_REQUIRED (a reset, or an inline recovery inside a sign-in). */
msal_na_error msal_na_state_submit_new_password(msal_na_state *state, const char *password, msal_na_callback callback,
                                                void *user_data);
msal_na_error msal_na_state_submit_new_password_wait(msal_na_state *state, const char *password, msal_na_result **out);
/* On V2_AUTH_METHOD_SELECTION_REQUIRED and V2_STRONG_AUTH_REGISTRATION_REQUIRED: the method at `index`
 * of msal_na_state_auth_method_count / msal_na_state_auth_method (out of range:
 * MSAL_NA_ERR_INVALID_ARGUMENT). `contact` (may be NULL): registration only, the email address or
 * phone number codes should go to. A selection state takes one successful selection (then
 * MSAL_NA_ERR_GENERAL: go on with the state that selection returned). */
msal_na_error msal_na_state_select_auth_method(msal_na_state *state, size_t index, const char *contact, msal_na_callback callback,
                                               void *user_data);
msal_na_error msal_na_state_select_auth_method_wait(msal_na_state *state, size_t index, const char *contact, msal_na_result **out);
/* On V2_MFA_VERIFICATION_REQUIRED and V2_STRONG_AUTH_VERIFICATION_REQUIRED: the code; a new code. */
msal_na_error msal_na_state_submit_challenge(msal_na_state *state, const char *code, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_submit_challenge_wait(msal_na_state *state, const char *code, msal_na_result **out);
msal_na_error msal_na_state_resend_challenge(msal_na_state *state, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_resend_challenge_wait(msal_na_state *state, msal_na_result **out);
/* On V2_PASSWORD_REQUIRED of a sign-in when msal_na_state_can_recover_password says 1: a password
 * reset inside the sign-in (a code, then NEW_PASSWORD_REQUIRED; the sign-in then completes).
 * Without the offer: MSAL_NA_ERR_GENERAL in the result. */
msal_na_error msal_na_state_recover_password(msal_na_state *state, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_recover_password_wait(msal_na_state *state, msal_na_result **out);

/*
 * What a V2 result or state shows (no network; a restored state too). A value that does not apply
 * to the kind is 0, NULL or an empty list (NULL returns with a message only for a bad handle, index
 * or field). The auth methods of a selection or registration state:
 * msal_na_state_auth_method_count / msal_na_state_auth_method (ID, CHALLENGE_TYPE: "password",
 * "email", "sms"; CHANNEL; LOGIN_HINT: the masked contact).
 */
int msal_na_result_scenario(msal_na_result *result);                     /* msal_na_scenario */
int msal_na_state_scenario(msal_na_state *state);                        /* msal_na_scenario */
int msal_na_state_selection_purpose(msal_na_state *state);               /* msal_na_selection_purpose */
/* V2_CODE_REQUIRED, V2_MFA_VERIFICATION_REQUIRED, V2_STRONG_AUTH_VERIFICATION_REQUIRED: */
char *msal_na_state_sent_to(msal_na_state *state);                       /* the masked destination */
char *msal_na_state_channel(msal_na_state *state);                       /* "email", "sms" */
int msal_na_state_code_length(msal_na_state *state);
/* V2_ATTRIBUTES_REQUIRED: the attributes asked for (msal_na_attribute_field). */
size_t msal_na_state_attribute_count(msal_na_state *state);
char *msal_na_state_attribute(msal_na_state *state, size_t index, int field);
/* V2_PASSWORD_REQUIRED: 1 when the service offered password recovery from this step. */
int msal_na_state_can_recover_password(msal_na_state *state);

/* Saved states: msal_na_state_save and msal_na_app_restore_state take the V2 states that the SDK
 * saves (code, password, selection, MFA and registration steps; for the others msal_na_state_save
 * returns NULL for now, msal_na_last_error_message saying so); a saved V2 state restores to its
 * MSAL_NA_STATE_V2_* kind. */

#ifdef __cplusplus
}
#endif

#endif /* MSAL_NATIVE_AUTH_V2_H */
