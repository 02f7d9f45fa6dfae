/*
 * msal_native_auth/core.h: the application, the flows and their states, saved states, accounts and
 * tokens, results, logging, detaching callbacks, strings.
 *
 * Part of the C interface of MSAL native authentication for Linux. Include <msal_native_auth.h>,
 * which includes every part: the rules at its top (ownership, threads, callbacks, errors) hold here.
 */
#ifndef MSAL_NATIVE_AUTH_CORE_H
#define MSAL_NATIVE_AUTH_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Application ----------------------------------------------------------------------------- */

/*
 * Creates an application from a JSON configuration (no network):
 *   {"client_id": "…",                      required
 *    "tenant_subdomain": "contoso",         or "authority": "https://…" (http only for loopback)
 *    "challenge_types": ["oob", "password"], optional, default both
 *    "capabilities": ["mfa_required", "registration_required"], optional, default both; [] for none
 *    "cache_file": "/path/token_cache.json", optional; default $XDG_DATA_HOME/msal-native-auth/…
 *    "token_cache": "memory",               optional: keep tokens in memory only ("cache", its
 *                                           first spelling, is still read); "keyring", "redis"
 *    "request_timeout_seconds": 30}         optional
 * The terminal demo's files (with "api1"/"api2") are accepted; those fields are left to the program.
 * MSAL_NA_ERR_INVALID_CONFIG for malformed JSON or a bad field (the message names it).
 */
msal_na_error msal_na_app_create(const char *config_json, msal_na_app **out_app);
msal_na_error msal_na_app_free(msal_na_app *app);

/* The signed-in account from the token cache (no network); MSAL_NA_ERR_NO_ACCOUNT when none. */
msal_na_error msal_na_app_current_account(msal_na_app *app, msal_na_account **out_account);

/* ---- Flows (callback form returns at once; _wait form blocks) ---------------------------------- */
/* `scopes` arguments: space-separated, may be NULL (openid profile offline_access are always added). */

/* Sign-in. password may be NULL (the service then asks for a password or sends a code).
 * Outcomes: SIGNED_IN, CODE_REQUIRED, PASSWORD_REQUIRED, MFA_REQUIRED, REGISTRATION_REQUIRED. */
msal_na_error msal_na_sign_in(msal_na_app *app, const char *username, const char *password, const char *scopes,
                              msal_na_callback callback, void *user_data);
msal_na_error msal_na_sign_in_wait(msal_na_app *app, const char *username, const char *password, const char *scopes,
                                   msal_na_result **out);

/* Sign-up. password and attributes_json (a JSON object, e.g. {"displayName": "Ada"}) may be NULL.
 * Outcomes: CODE_REQUIRED, ATTRIBUTES_INVALID (no state: start again). */
msal_na_error msal_na_sign_up(msal_na_app *app, const char *username, const char *password, const char *attributes_json,
                              msal_na_callback callback, void *user_data);
msal_na_error msal_na_sign_up_wait(msal_na_app *app, const char *username, const char *password,
                                   const char *attributes_json, msal_na_result **out);

/* Password reset. Outcome: CODE_REQUIRED. */
msal_na_error msal_na_reset_password(msal_na_app *app, const char *username, msal_na_callback callback, void *user_data);
msal_na_error msal_na_reset_password_wait(msal_na_app *app, const char *username, msal_na_result **out);

/* ---- States ---------------------------------------------------------------------------------- */
/* A state stays usable after an error (submit a corrected code or password on the same state); a
 * state whose step succeeded answers later calls with MSAL_NA_ERR_GENERAL. Wrong kind of state for
 * the operation: MSAL_NA_ERR_WRONG_STATE. */

int msal_na_state_kind(msal_na_state *state);
msal_na_error msal_na_state_free(msal_na_state *state);

/* On SIGN_IN/SIGN_UP/RESET_PASSWORD_CODE_REQUIRED, MFA_REQUIRED, REGISTER_STRONG_AUTH_VERIFICATION_REQUIRED. */
msal_na_error msal_na_state_submit_code(msal_na_state *state, const char *code, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_submit_code_wait(msal_na_state *state, const char *code, msal_na_result **out);

/* On SIGN_IN/SIGN_UP_PASSWORD_REQUIRED and RESET_PASSWORD_REQUIRED (the new password). */
msal_na_error msal_na_state_submit_password(msal_na_state *state, const char *password, msal_na_callback callback,
                                            void *user_data);
msal_na_error msal_na_state_submit_password_wait(msal_na_state *state, const char *password, msal_na_result **out);

/* On SIGN_UP_ATTRIBUTES_REQUIRED: a JSON object of attribute values. */
msal_na_error msal_na_state_submit_attributes(msal_na_state *state, const char *attributes_json,
                                              msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_submit_attributes_wait(msal_na_state *state, const char *attributes_json, msal_na_result **out);

/* On the three *_CODE_REQUIRED states: sends a new code (outcome CODE_REQUIRED with a new state). */
msal_na_error msal_na_state_resend_code(msal_na_state *state, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_resend_code_wait(msal_na_state *state, msal_na_result **out);

/* MFA (AWAITING_MFA, MFA_REQUIRED): sends a code to the auth method with this id (one of the ids the
 * MFA_REQUIRED result listed). Outcome CODE_REQUIRED with an MFA_REQUIRED state. */
msal_na_error msal_na_state_request_challenge(msal_na_state *state, const char *auth_method_id,
                                              msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_request_challenge_wait(msal_na_state *state, const char *auth_method_id, msal_na_result **out);

/* Registration (REGISTER_STRONG_AUTH, …_VERIFICATION_REQUIRED): registers `verification_contact` (an
 * email address or phone number) as a method of the listed kind. Outcome CODE_REQUIRED, or SIGNED_IN
 * when the contact was already verified. */
msal_na_error msal_na_state_register_method(msal_na_state *state, const char *auth_method_id,
                                            const char *verification_contact, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_register_method_wait(msal_na_state *state, const char *auth_method_id,
                                                 const char *verification_contact, msal_na_result **out);

/* On SIGN_IN_AFTER_SIGN_UP and SIGN_IN_AFTER_RESET_PASSWORD: signs in without the password. */
msal_na_error msal_na_state_sign_in(msal_na_state *state, const char *scopes, msal_na_callback callback, void *user_data);
msal_na_error msal_na_state_sign_in_wait(msal_na_state *state, const char *scopes, msal_na_result **out);

/* ---- Saved states ---------------------------------------------------------------------------- */
/* A flow can continue later, in this process or another (docs/saved-states.md in the repository).
 * The saved string holds the flow's continuation token: a secret for the minutes the service
 * accepts it. Keep it where a password could go, never in a log. */

/* The state as a string (UTF-8 JSON, at most 64 KiB), yours to free with msal_na_string_free; the
 * state stays usable. NULL for a handle that is not a live state (msal_na_last_error_message). */
char *msal_na_state_save(msal_na_state *state);

/* Restores a saved state for `app` (no network): *out_state receives a state handle of the saved
 * kind (msal_na_state_kind says which), which takes the same calls as the original. expected_kind:
 * 0 for any kind, or an msal_na_state_type, refused with MSAL_NA_ERR_STATE_WRONG_KIND when the
 * saved state is another. Errors MSAL_NA_ERR_STATE_* (the message says why); NULL `saved` or
 * invalid UTF-8: MSAL_NA_ERR_INVALID_ARGUMENT. */
msal_na_error msal_na_app_restore_state(msal_na_app *app, const char *saved, int expected_kind, msal_na_state **out_state);

/* The auth methods an MFA or registration state carries (a restored one too; 0 for other kinds):
 * the ids msal_na_state_request_challenge and msal_na_state_register_method take. */
size_t msal_na_state_auth_method_count(msal_na_state *state);
char *msal_na_state_auth_method(msal_na_state *state, size_t index, int field); /* msal_na_auth_method_field */

/* Saved sign-ins on the application's Redis (an app created with "token_cache": "redis", the Redis part
 * of standard.h): the state saved under a new id (32 hex digits) that any process of the app
 * takes back once, for 10 minutes, with the same key prefix and encryption key as the token cache.
 * The id lets its holder continue the sign-in: treat it as a secret. An app without "token_cache": "redis"
 * is MSAL_NA_ERR_INVALID_ARGUMENT; a server that cannot be used MSAL_NA_ERR_REDIS_UNAVAILABLE.
 * save: *out_id receives the id, yours to free with msal_na_string_free; the state stays usable.
 * take: reads, opens, then deletes only if unchanged (one script), so of two processes given one id
 * one gets the state and the other MSAL_NA_ERR_STATE_NOT_FOUND, as does a take after 10 minutes; a
 * process that cannot open it (another encryption key) leaves it in Redis for one that can; then as
 * msal_na_app_restore_state (expected_kind, the MSAL_NA_ERR_STATE_* errors; a state refused for
 * its kind is taken all the same). */
msal_na_error msal_na_app_redis_save_state(msal_na_app *app, msal_na_state *state, char **out_id);
msal_na_error msal_na_app_redis_take_state(msal_na_app *app, const char *id, int expected_kind, msal_na_state **out_state);

/* ---- Accounts and tokens --------------------------------------------------------------------- */

/* An access token for the scopes (from the cache when one is valid, else by refreshing).
 * force_refresh != 0 skips the cache. Outcome ACCESS_TOKEN. */
msal_na_error msal_na_account_get_access_token(msal_na_account *account, const char *scopes, int force_refresh,
                                               msal_na_callback callback, void *user_data);
msal_na_error msal_na_account_get_access_token_wait(msal_na_account *account, const char *scopes, int force_refresh,
                                                    msal_na_result **out);

/*
 * The same token copied into your buffer: the fast form of msal_na_account_get_access_token_wait
 * (same arguments, tokens and errors), for code that asks for a token before every API call.
 * When the SDK would serve the token from its cache without waiting (the steady state: these
 * scopes were asked for before, the cache has not changed since, the token is valid and not yet
 * due for a refresh), it is copied on the calling thread: no thread hop, no result, no string to
 * free. Otherwise (the first call for a scopes string, a refresh, force_refresh, an error) the call
 * does what the _wait form does, blocking, and copies that token.
 *
 *   buffer, capacity  receive the token, NUL-terminated, then the granted scopes (space-separated,
 *                     NUL-terminated) right after the token's NUL. buffer may be NULL when capacity is 0.
 *   out_size          (may be NULL) the bytes the token and scopes take with both NULs: written, or
 *                     needed when the answer is MSAL_NA_ERR_BUFFER_TOO_SMALL (nothing is written then;
 *                     the token is in the cache, so calling again with a buffer that large is fast).
 *   out_expires_on    (may be NULL) the token's expiry, Unix time.
 *   out_result        (may be NULL) NULL when the token came from the fast path; otherwise the result
 *                     of the full call, yours to free: its correlation id, or the error's details.
 * 4 KiB holds the tokens Entra issues; the return value is the error code, as for the _wait form.
 */
msal_na_error msal_na_account_get_access_token_into(msal_na_account *account, const char *scopes, int force_refresh,
                                                    char *buffer, size_t capacity, size_t *out_size,
                                                    int64_t *out_expires_on, msal_na_result **out_result);

char *msal_na_account_username(msal_na_account *account);          /* may be NULL */
char *msal_na_account_home_account_id(msal_na_account *account);   /* "uid.utid" */
char *msal_na_account_id_token(msal_na_account *account);          /* the raw JWT; may be NULL */
char *msal_na_account_claims_json(msal_na_account *account);       /* the id token's claims */
/* Removes the account's tokens from the cache (no network). The handle stays valid; free it. */
msal_na_error msal_na_account_sign_out(msal_na_account *account);
msal_na_error msal_na_account_free(msal_na_account *account);

/* ---- Results --------------------------------------------------------------------------------- */

msal_na_error msal_na_result_error(msal_na_result *result);   /* MSAL_NA_OK unless the outcome is ERROR */
int msal_na_result_outcome(msal_na_result *result);            /* an msal_na_outcome */
char *msal_na_result_message(msal_na_result *result);          /* the error message; NULL when none */
char *msal_na_result_correlation_id(msal_na_result *result);   /* of the flow, for support; may be NULL */
char *msal_na_result_sent_to(msal_na_result *result);          /* CODE_REQUIRED: where the code went */
char *msal_na_result_channel(msal_na_result *result);          /* CODE_REQUIRED: "email", "sms" */
int msal_na_result_code_length(msal_na_result *result);        /* CODE_REQUIRED: digits; 0 otherwise */
char *msal_na_result_access_token(msal_na_result *result);     /* ACCESS_TOKEN */
int64_t msal_na_result_expires_on(msal_na_result *result);     /* ACCESS_TOKEN: Unix time; 0 otherwise */
char *msal_na_result_scopes(msal_na_result *result);           /* ACCESS_TOKEN: granted, space-separated */
size_t msal_na_result_auth_method_count(msal_na_result *result);        /* MFA_REQUIRED, REGISTRATION_REQUIRED */
char *msal_na_result_auth_method(msal_na_result *result, size_t index, int field); /* msal_na_auth_method_field */
size_t msal_na_result_attribute_count(msal_na_result *result);          /* ATTRIBUTES_REQUIRED/_INVALID */
char *msal_na_result_attribute(msal_na_result *result, size_t index, int field);  /* msal_na_attribute_field */
/* Everything above as one JSON object (also server_error, server_suberror, error_codes). */
char *msal_na_result_json(msal_na_result *result);
/* The next state / the signed-in account, handed over once: a second call returns NULL. */
msal_na_state *msal_na_result_take_state(msal_na_result *result);
msal_na_account *msal_na_result_take_account(msal_na_result *result);
msal_na_error msal_na_result_free(msal_na_result *result);

/* ---- Logging ---------------------------------------------------------------------------------- */

/* The SDK's log lines (msal_na_log_level), delivered to `callback` one at a time, in order, on a thread
 * of the library (not the caller's, not a callback of an operation): `message` is valid during the
 * call only. Personal data (usernames, account ids) and secrets are masked unless `pii` is 1;
 * `contains_pii` says whether this line shows any. Every application of the process logs through
 * it, including those made earlier. A NULL callback stops logging. Lines arrive shortly after
 * they are written: msal_na_flush_log waits until all written so far were delivered. */
typedef enum msal_na_log_level {
    MSAL_NA_LOG_NOTHING = 0,
    MSAL_NA_LOG_ERROR = 1,
    MSAL_NA_LOG_WARNING = 2,
    MSAL_NA_LOG_INFO = 3,
    MSAL_NA_LOG_VERBOSE = 4
} msal_na_log_level;
typedef void (*msal_na_log_callback)(int level, const char *message, int contains_pii, void *user_data);
msal_na_error msal_na_set_log_callback(int level, int pii, msal_na_log_callback callback, void *user_data);
void msal_na_flush_log(void);

/* ---- Detaching callbacks ---------------------------------------------------------------------- */

/* No callback of yours (results, log lines, interceptors, URL callbacks) is called after this returns,
 * from any thread; it waits for those in progress and cannot be undone. See "Detaching" at the top. */
void msal_na_detach_callbacks(void);

/* ---- Strings, errors, diagnostics ------------------------------------------------------------ */

/* Frees a string this library returned. NULL is fine. MSAL_NA_ERR_INVALID_HANDLE (nothing freed)
 * for a pointer that is not a live string of the library. */
msal_na_error msal_na_string_free(char *string);
/* The message of the last failed call that returned msal_na_error on this thread; NULL when none. */
char *msal_na_last_error_message(void);
/* "MSAL_NA_ERR_INVALID_CODE" …; static. */
const char *msal_na_error_name(int error);
/* The library's version; static. */
const char *msal_na_version(void);
/* How many handles / strings are live (not yet freed): for leak checks in tests. */
size_t msal_na_live_handles(void);
size_t msal_na_live_strings(void);

#ifdef __cplusplus
}
#endif

#endif /* MSAL_NATIVE_AUTH_CORE_H */
