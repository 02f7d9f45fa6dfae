/*
 * msal_native_auth/types.h: the handles, error codes, outcomes, state kinds and the result callback.
 *
 * Part of the C interface of MSAL native authentication for Linux. Include <msal_native_auth.h>,
 * which includes every part: the rules at its top (ownership, threads, callbacks, errors) hold here.
 */
#ifndef MSAL_NATIVE_AUTH_TYPES_H
#define MSAL_NATIVE_AUTH_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Types ----------------------------------------------------------------------------------- */

typedef struct msal_na_app msal_na_app;
typedef struct msal_na_state msal_na_state;
typedef struct msal_na_account msal_na_account;
typedef struct msal_na_result msal_na_result;

/* Error codes. The numbers are stable: existing values never change; new kinds get new numbers. */
typedef enum msal_na_error {
    MSAL_NA_OK = 0,
    /* The call itself was wrong; nothing was sent. */
    MSAL_NA_ERR_INVALID_ARGUMENT = 1,  /* NULL where not allowed, invalid UTF-8, malformed JSON, bad index */
    MSAL_NA_ERR_INVALID_HANDLE = 2,    /* freed, freed twice, wrong kind, never a handle; unknown string */
    MSAL_NA_ERR_INVALID_CONFIG = 3,    /* msal_na_app_create: the configuration (message names the field) */
    MSAL_NA_ERR_WRONG_STATE = 4,       /* the operation does not apply to this kind of state */
    /* What the service or the SDK reported (the SDK's isXxx flags). */
    MSAL_NA_ERR_GENERAL = 10,          /* anything else; see the message (includes a state reused after its step) */
    MSAL_NA_ERR_NETWORK = 11,          /* no usable answer: connection failed, timed out, HTTP 5xx, ... */
    MSAL_NA_ERR_BROWSER_REQUIRED = 12, /* isBrowserRequired: the flow needs the web sign-in */
    MSAL_NA_ERR_USER_NOT_FOUND = 13,
    MSAL_NA_ERR_INVALID_CREDENTIALS = 14, /* wrong password (sign-in) */
    MSAL_NA_ERR_INVALID_USERNAME = 15,
    MSAL_NA_ERR_USER_ALREADY_EXISTS = 16,
    MSAL_NA_ERR_INVALID_PASSWORD = 17, /* sign-up / reset: the password policy refused it */
    MSAL_NA_ERR_USER_DOES_NOT_HAVE_PASSWORD = 18,
    MSAL_NA_ERR_INVALID_CODE = 19,     /* wrong one-time code (also MFA and registration codes) */
    MSAL_NA_ERR_MFA_REQUIRED = 20,     /* MFA needed but the app did not declare "mfa_required", or a token needs it (AADSTS50076) */
    MSAL_NA_ERR_REGISTRATION_REQUIRED = 21, /* likewise for strong-auth method registration */
    MSAL_NA_ERR_REFRESH_TOKEN_EXPIRED = 22, /* sign in again */
    MSAL_NA_ERR_INVALID_SCOPE = 23,
    MSAL_NA_ERR_AUTH_METHOD_BLOCKED = 24,
    MSAL_NA_ERR_INVALID_INPUT = 25,    /* registration: the contact (email, phone) is not acceptable */
    MSAL_NA_ERR_VERIFICATION_CONTACT_BLOCKED = 26,
    MSAL_NA_ERR_NO_ACCOUNT = 27,       /* msal_na_app_current_account: nobody signed in */
    MSAL_NA_ERR_CACHE = 28,            /* reserved: the token cache could not be read or written */
    MSAL_NA_ERR_BUFFER_TOO_SMALL = 29, /* msal_na_account_get_access_token_into: *out_size says how much is needed */
    /* msal_na_app_restore_state: the saved state cannot be restored; nothing was sent (start the flow again). */
    MSAL_NA_ERR_STATE_MALFORMED = 30,  /* not a saved state: not JSON, cut short, over 64 KiB, a member missing or wrong */
    MSAL_NA_ERR_STATE_UNSUPPORTED_VERSION = 31, /* saved by a newer library, in a format version this one cannot read */
    MSAL_NA_ERR_STATE_EXPIRED = 32,    /* its continuation token is older than the service keeps one (10 minutes) */
    MSAL_NA_ERR_STATE_WRONG_APPLICATION = 33, /* saved by an application with another client id or authority */
    MSAL_NA_ERR_STATE_WRONG_KIND = 34, /* not of the expected_kind asked for */
    MSAL_NA_ERR_STATE_NOT_FOUND = 35,  /* msal_na_app_redis_take_state: no saved sign-in under the id (never saved,
                                          expired after 10 minutes, or already taken once) */
    /* The browser sign-in, accounts and the keyring (the last part of this header). */
    MSAL_NA_ERR_USER_CANCELED = 40,    /* the browser sign-in was cancelled: msal_na_cancel_browser, the page's
                                          Cancel or declined consent, or its timeout */
    MSAL_NA_ERR_NO_BROWSER = 41,       /* no browser could be started and no URL callback shows the address */
    MSAL_NA_ERR_BROWSER_SESSION_RUNNING = 42, /* another browser sign-in runs in this process (one at a time) */
    MSAL_NA_ERR_INTERACTION_REQUIRED = 43, /* the service wants the user again (sign in in the browser) */
    MSAL_NA_ERR_DECLINED_SCOPES = 44,  /* some scopes were not granted; the result's JSON has "scopes" (granted)
                                          and "declined_scopes"; the granted tokens are cached */
    MSAL_NA_ERR_KEYRING_UNAVAILABLE = 45, /* no Secret Service, no keyring, or libsecret / the keyring library
                                             could not be loaded (the message says which) */
    MSAL_NA_ERR_KEYRING_LOCKED = 46,   /* the keyring is locked and stayed locked */
    MSAL_NA_ERR_REDIS_UNAVAILABLE = 47, /* "token_cache": "redis": the server cannot be used at msal_na_app_create (down,
                                           credentials or TLS refused; the message names the server, never the password) */
    /* Native auth V2 (the last part of this header). */
    MSAL_NA_ERR_INVALID_ATTRIBUTES = 50, /* sign-up: attribute values refused; the result's attributes name them */
    MSAL_NA_ERR_INTERNAL = 99
} msal_na_error;

/* What an operation produced (msal_na_result_outcome). */
typedef enum msal_na_outcome {
    MSAL_NA_OUTCOME_ERROR = 0,                 /* see msal_na_result_error */
    MSAL_NA_OUTCOME_SIGNED_IN = 1,             /* take the account */
    MSAL_NA_OUTCOME_CODE_REQUIRED = 2,         /* a code was sent (sent_to, channel, code_length); submit it on the state */
    MSAL_NA_OUTCOME_PASSWORD_REQUIRED = 3,     /* submit a password on the state */
    MSAL_NA_OUTCOME_ATTRIBUTES_REQUIRED = 4,   /* submit attributes (the result lists them) on the state */
    MSAL_NA_OUTCOME_ATTRIBUTES_INVALID = 5,    /* the listed attributes were refused; the state (if any) takes corrected ones */
    MSAL_NA_OUTCOME_SIGN_UP_COMPLETED = 6,     /* the state signs in without the password (msal_na_state_sign_in) */
    MSAL_NA_OUTCOME_RESET_PASSWORD_COMPLETED = 7, /* likewise after a password reset */
    MSAL_NA_OUTCOME_MFA_REQUIRED = 8,          /* choose an auth method; msal_na_state_request_challenge */
    MSAL_NA_OUTCOME_REGISTRATION_REQUIRED = 9, /* register a method; msal_na_state_register_method */
    MSAL_NA_OUTCOME_ACCESS_TOKEN = 10,         /* msal_na_result_access_token, _expires_on, _scopes */
    /* Native auth V2 only (it also gives SIGNED_IN, CODE_/PASSWORD_/ATTRIBUTES_REQUIRED, SIGN_UP_/RESET_PASSWORD_COMPLETED): */
    MSAL_NA_OUTCOME_AUTH_METHOD_SELECTION_REQUIRED = 11, /* choose a method (auth methods); msal_na_state_select_auth_method */
    MSAL_NA_OUTCOME_NEW_PASSWORD_REQUIRED = 12,   /* msal_na_state_submit_new_password */
    MSAL_NA_OUTCOME_MFA_VERIFICATION_REQUIRED = 13, /* a second-factor code was sent; msal_na_state_submit_challenge */
    MSAL_NA_OUTCOME_STRONG_AUTH_REGISTRATION_REQUIRED = 14, /* register a method: msal_na_state_select_auth_method with a contact */
    MSAL_NA_OUTCOME_STRONG_AUTH_VERIFICATION_REQUIRED = 15  /* a code went to the new method; msal_na_state_submit_challenge */
} msal_na_outcome;

/* The kind of a flow state, as msal_na_state_kind returns it (0: not a live state). */
typedef enum msal_na_state_type {
    MSAL_NA_STATE_SIGN_IN_CODE_REQUIRED = 1,
    MSAL_NA_STATE_SIGN_IN_PASSWORD_REQUIRED = 2,
    MSAL_NA_STATE_SIGN_UP_CODE_REQUIRED = 3,
    MSAL_NA_STATE_SIGN_UP_PASSWORD_REQUIRED = 4,
    MSAL_NA_STATE_SIGN_UP_ATTRIBUTES_REQUIRED = 5,
    MSAL_NA_STATE_SIGN_IN_AFTER_SIGN_UP = 6,
    MSAL_NA_STATE_RESET_PASSWORD_CODE_REQUIRED = 7,
    MSAL_NA_STATE_RESET_PASSWORD_REQUIRED = 8,
    MSAL_NA_STATE_SIGN_IN_AFTER_RESET_PASSWORD = 9,
    MSAL_NA_STATE_AWAITING_MFA = 10,
    MSAL_NA_STATE_MFA_REQUIRED = 11,
    MSAL_NA_STATE_REGISTER_STRONG_AUTH = 12,
    MSAL_NA_STATE_REGISTER_STRONG_AUTH_VERIFICATION_REQUIRED = 13,
    /* Native auth V2 (experimental; the last part of this header). */
    MSAL_NA_STATE_V2_CODE_REQUIRED = 20,
    MSAL_NA_STATE_V2_PASSWORD_REQUIRED = 21,
    MSAL_NA_STATE_V2_NEW_PASSWORD_REQUIRED = 22,
    MSAL_NA_STATE_V2_ATTRIBUTES_REQUIRED = 23,
    MSAL_NA_STATE_V2_AUTH_METHOD_SELECTION_REQUIRED = 24,
    MSAL_NA_STATE_V2_MFA_VERIFICATION_REQUIRED = 25,
    MSAL_NA_STATE_V2_STRONG_AUTH_REGISTRATION_REQUIRED = 26,
    MSAL_NA_STATE_V2_STRONG_AUTH_VERIFICATION_REQUIRED = 27,
    MSAL_NA_STATE_V2_SIGN_IN_AFTER_SIGN_UP = 28,
    MSAL_NA_STATE_V2_SIGN_IN_AFTER_RESET_PASSWORD = 29
} msal_na_state_type;

typedef enum msal_na_auth_method_field {
    MSAL_NA_AUTH_METHOD_ID = 0,
    MSAL_NA_AUTH_METHOD_CHALLENGE_TYPE = 1,
    MSAL_NA_AUTH_METHOD_CHANNEL = 2,     /* "email", "sms" */
    MSAL_NA_AUTH_METHOD_LOGIN_HINT = 3   /* the masked contact; may be NULL */
} msal_na_auth_method_field;

typedef enum msal_na_attribute_field {
    MSAL_NA_ATTRIBUTE_NAME = 0,
    MSAL_NA_ATTRIBUTE_TYPE = 1,
    MSAL_NA_ATTRIBUTE_REQUIRED = 2,      /* "true" or "false" */
    MSAL_NA_ATTRIBUTE_REGEX = 3          /* may be NULL */
} msal_na_attribute_field;

/* Called once per started operation, on the library's callback thread. Owns `result`. */
typedef void (*msal_na_callback)(msal_na_result *result, void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* MSAL_NATIVE_AUTH_TYPES_H */
