/*
 * msal_native_auth.h: the C interface of MSAL native authentication for Linux.
 *
 * Native sign-in (no browser) to a Microsoft Entra External ID tenant from C, C++, Python, Rust,
 * Go... : sign-in with a password or an email code, sign-up (with attributes), password reset,
 * MFA and strong-auth registration, the signed-in account, access tokens, sign-out. It is a thin
 * layer over the Swift SDK's public API (module MSAL), shipped as libmsalnativeauth.so with the
 * Swift runtime and Foundation linked in: only system libraries are needed at run time (glibc,
 * libstdc++, libm, libcurl; see the repository's Bindings/README.md).
 *
 *     pkg-config --cflags --libs msalnativeauth
 *
 * == Objects and ownership ==
 * Four kinds of opaque handle: msal_na_app, msal_na_state (a step of a flow), msal_na_account and
 * msal_na_result (what one operation produced). Each handle the library gives you is yours, and
 * you free it once with its free function (msal_na_app_free, msal_na_state_free,
 * msal_na_account_free, msal_na_result_free). Freeing is independent: a state or account stays
 * usable after its application or result is freed.
 *
 * Handles are ids, not addresses: the library never dereferences them. Every call looks the handle
 * up in a table of live handles, so a handle that was freed, freed twice, of the wrong kind (an
 * account passed as a state) or any other value is answered with MSAL_NA_ERR_INVALID_HANDLE, never
 * a crash. Ids are never reused within a process, so this detection is complete for handles.
 *
 * Strings: every `char *` the library returns is a copy you own, freed with msal_na_string_free
 * (and nothing else). It returns MSAL_NA_ERR_INVALID_HANDLE, touching nothing, for a pointer that
 * is not a live string of the library (freed already, or never one). This detection has one limit:
 * once a string is freed, malloc may hand its address to a later string of the library, and a
 * second free of the old pointer then frees the new string. `const char *` returns
 * (msal_na_error_name, msal_na_version) are static and never freed.
 *
 * String arguments are NUL-terminated UTF-8; invalid UTF-8 gives MSAL_NA_ERR_INVALID_ARGUMENT. NULL
 * is accepted only where a parameter says "may be NULL"; elsewhere it gives
 * MSAL_NA_ERR_INVALID_ARGUMENT. What cannot be detected: a pointer to memory that is not a
 * NUL-terminated string (a wild or dangling `const char *` argument) is read as C reads it, and
 * undefined behaviour follows, as with any C library.
 *
 * == Calls that wait, threads, callbacks ==
 * No function blocks the calling thread on the network unless its name ends in `_wait`, or it is
 * msal_na_account_get_access_token_into (which waits only when the token is not served from the
 * cache). Each operation that talks to the service has two forms:
 *   - msal_na_X(..., callback, user_data): checks its arguments, starts the work and returns at
 *     once. MSAL_NA_OK means `callback` will be called exactly once, later, with a result (unless
 *     callbacks are detached first, below); any other return means it will not be called
 *     (msal_na_last_error_message says why).
 *   - msal_na_X_wait(..., &result): does the same and waits on the calling thread. When `out` is not
 *     NULL, `*out` always receives a result (also for an argument error) that you free; the return
 *     value is msal_na_result_error of that result.
 * Callbacks run on a thread owned by the library (one serial queue: never two at once, though not
 * always the same OS thread), in the order the operations finished; never on your thread and never
 * on the Swift concurrency pool that does the work. The callback
 * owns the result it receives. A callback may call any function of this header, including a
 * `_wait` one (later callbacks wait meanwhile) and the one that started it (re-entrancy is fine).
 * The `_wait` forms may be called from any thread, including a callback, and do not deadlock.
 *
 * Detaching: msal_na_detach_callbacks stops every call of the library into your code, for good:
 * result callbacks, log lines, request interceptors and URL callbacks, of every application. Call
 * it before your program, or the language runtime your callbacks run in (Python at interpreter
 * exit), goes away while operations may still be running. It returns once none of your callbacks
 * runs: it waits for those in progress on other threads to return (not for the one that calls it,
 * when a callback does; nor for another callback that is detaching at the same time). From then on
 * a result that would have been delivered is freed by the library, a log line is dropped, an
 * interceptor is skipped (the request goes without its headers) and a URL callback is skipped (the
 * sign-in waits for its timeout or msal_na_cancel_browser). The _wait forms and the functions
 * without a callback keep working; a callback form returns MSAL_NA_ERR_INVALID_ARGUMENT.
 *
 * Thread safety: every function may be called from any thread at the same time, on the same or
 * different handles. Handles are not bound to threads. Two operations on one state at once are both
 * sent; the service decides (a state whose step succeeded answers later calls with an error).
 * Freeing a handle while an operation on it runs is safe: the operation keeps what it needs and
 * still delivers its result. The functions without a callback do not touch the network; the
 * account functions read or write the token cache file (msal_na_account_sign_out takes the cache's
 * file lock, which another process may hold briefly).
 *
 * Errors: functions that return msal_na_error also record a message for the calling thread,
 * read with msal_na_last_error_message (like errno: each call replaces it). Operation errors come
 * in the result: msal_na_result_error, _message, _correlation_id, and msal_na_result_json for the
 * server's error, suberror and error codes.
 */
#ifndef MSAL_NATIVE_AUTH_H
#define MSAL_NATIVE_AUTH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSAL_NA_VERSION "0.1.0"

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
    MSAL_NA_ERR_REDIS_UNAVAILABLE = 47, /* "cache": "redis": the server cannot be used at msal_na_app_create (down,
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

/* ---- Application ----------------------------------------------------------------------------- */

/*
 * Creates an application from a JSON configuration (no network):
 *   {"client_id": "…",                      required
 *    "tenant_subdomain": "contoso",         or "authority": "https://…" (http only for loopback)
 *    "challenge_types": ["oob", "password"], optional, default both
 *    "capabilities": ["mfa_required", "registration_required"], optional, default both; [] for none
 *    "cache_file": "/path/token_cache.json", optional; default $XDG_DATA_HOME/msal-native-auth/…
 *    "cache": "memory",                     optional: keep tokens in memory only
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

/* Saved sign-ins on the application's Redis (an app created with "cache": "redis", the Redis part
 * of this header): the state saved under a new id (32 hex digits) that any process of the app
 * takes back once, for 10 minutes, with the same key prefix and encryption key as the token cache.
 * The id lets its holder continue the sign-in: treat it as a secret. An app without "cache": "redis"
 * is MSAL_NA_ERR_INVALID_ARGUMENT; a server that cannot be used MSAL_NA_ERR_REDIS_UNAVAILABLE.
 * save: *out_id receives the id, yours to free with msal_na_string_free; the state stays usable.
 * take: gets and deletes in one step (GETDEL), so of two processes given one id one gets the state
 * and the other MSAL_NA_ERR_STATE_NOT_FOUND, as does a take after 10 minutes; then as
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

/* ================================================================================================
 * Browser sign-in, claims, correlation ids, several accounts, the request interceptor and the
 * keyring: what the Swift SDK's standard surface and parameter classes add (the repository's
 * Bindings/README.md, "Browser, claims, accounts, interceptor, keyring"). The rules at the top of
 * this file hold here too; what is particular to a call is said beside it.
 *
 * Its error numbers, 40 to 47, are in msal_na_error above (one type for comparisons and switches).
 * ================================================================================================ */

/* ---- Request options: claims, correlation id, refresh token ------------------------------------ */
/*
 * The _ex forms take `options_json`, a JSON object (NULL or "" for none). A field the call does not
 * take, or a value of the wrong type, is MSAL_NA_ERR_INVALID_ARGUMENT naming the field; nothing is
 * sent. Fields:
 *   "scopes": ["api://…/X.Read"] or "a b"   the API scopes (openid profile offline_access are added)
 *   "claims": {…} or "{…}"                  a claims request (OpenID Connect §5.5), for example what
 *                                           msal_na_claims_from_challenge returns; a token with claims
 *                                           never comes from the cache
 *   "correlation_id": "0f8fad5b-…"          the flow's or request's correlation id (a UUID); sent as
 *                                           client-request-id, and the id of every later step of the flow
 *   "force_refresh": true                   skip the cached access token
 *   "return_refresh_token": true            also hand back the refresh token (msal_na_result_refresh_token)
 *   "attributes": {"displayName": "Ada"}    sign-up attributes
 */
/* Sign-in; options: scopes, claims, correlation_id. Outcomes as msal_na_sign_in. */
msal_na_error msal_na_sign_in_ex(msal_na_app *app, const char *username, const char *password, const char *options_json,
                                 msal_na_callback callback, void *user_data);
msal_na_error msal_na_sign_in_ex_wait(msal_na_app *app, const char *username, const char *password, const char *options_json,
                                      msal_na_result **out);
/* Sign-up; options: attributes, correlation_id. */
msal_na_error msal_na_sign_up_ex(msal_na_app *app, const char *username, const char *password, const char *options_json,
                                 msal_na_callback callback, void *user_data);
msal_na_error msal_na_sign_up_ex_wait(msal_na_app *app, const char *username, const char *password, const char *options_json,
                                      msal_na_result **out);
/* Password reset; options: correlation_id. */
msal_na_error msal_na_reset_password_ex(msal_na_app *app, const char *username, const char *options_json,
                                        msal_na_callback callback, void *user_data);
msal_na_error msal_na_reset_password_ex_wait(msal_na_app *app, const char *username, const char *options_json, msal_na_result **out);
/* An access token; options: scopes, force_refresh, claims, correlation_id, return_refresh_token.
 * Outcome ACCESS_TOKEN. A claims request the refresh token cannot satisfy answers an error (for a
 * conditional-access context, MSAL_NA_ERR_MFA_REQUIRED with AADSTS50076): then sign in in the
 * browser with the same claims (msal_na_app_acquire_token). */
msal_na_error msal_na_account_get_access_token_ex(msal_na_account *account, const char *options_json, msal_na_callback callback,
                                                  void *user_data);
msal_na_error msal_na_account_get_access_token_ex_wait(msal_na_account *account, const char *options_json, msal_na_result **out);
/* ACCESS_TOKEN with "return_refresh_token": the refresh token (a secret: never log it); else NULL. */
char *msal_na_result_refresh_token(msal_na_result *result);
/* The claims request of an API's claims challenge: the `claims` parameter of its 401's
 * `WWW-Authenticate: Bearer … claims="<base64>"` header, decoded, as JSON text to pass as "claims".
 * NULL (MSAL_NA_ERR_INVALID_ARGUMENT in msal_na_last_error_message) when the header has none. */
char *msal_na_claims_from_challenge(const char *www_authenticate);

/* ---- Browser sign-in ----------------------------------------------------------------------------- */
/*
 * MSAL's acquireToken: the sign-in page in a browser, a loopback redirect to this process
 * (http://localhost:PORT/, a free port), PKCE, the code redeemed, the tokens written to the
 * application's token cache (where msal_na_app_accounts and msal_na_app_current_account see them).
 * It is the way on when a native step answers MSAL_NA_ERR_BROWSER_REQUIRED (a policy or method
 * native sign-in cannot do), MFA_/REGISTRATION_REQUIRED without the capability, or an API's claims
 * challenge (pass its claims). One browser sign-in runs at a time in a process.
 *
 * options_json (as above; NULL for the defaults):
 *   "scopes", "claims", "correlation_id"
 *   "login_hint": "ada@contoso.com"      fills the page's username
 *   "prompt": "select_account" | "login" | "consent" | "create" | "if_necessary" (default)
 *   "domain_hint", "extra_scopes_to_consent" (list), "extra_query_parameters" ({name: value})
 *   "timeout_seconds": 300                how long to wait for the user (default: until cancelled)
 *   "system_browser": true | false        default: true without a URL callback, false with one
 * Who shows the page:
 *   url_callback NULL                     the system browser: $BROWSER, then xdg-open with a display,
 *                                         then wslview on WSL (never through a shell); none starts:
 *                                         MSAL_NA_ERR_NO_BROWSER at once
 *   url_callback, system_browser false    the app shows the address itself (prints it, opens its own
 *                                         view): the callback receives it and the sign-in waits
 *   url_callback, system_browser true     the system browser first; the callback only when none
 *                                         starts, with the short address and the ssh -L line too
 *                                         (over SSH: print them for the person's own machine)
 * The callback receives a msal_na_sign_in_url, valid during the call only. Read `size` first: a
 * field is there when its end is within `size` (later versions add fields at the end, never
 * change these). It runs on a thread of the library kept for URL callbacks (not the result
 * callbacks' thread, so a result callback may call msal_na_app_acquire_token_wait; not yours),
 * at most once per sign-in. It must return without waiting for the sign-in to end (start your
 * browser and return; so no msal_na_app_acquire_token_wait in it); it may call any other function
 * here, including msal_na_cancel_browser. The
 * result (callback or _wait) is delivered after the URL callback has returned, so `url_user_data`
 * must stay valid until then.
 * Outcome ACCESS_TOKEN: msal_na_result_access_token/_expires_on/_scopes/_correlation_id, and the
 * signed-in account with msal_na_result_take_account. Errors: USER_CANCELED, NO_BROWSER,
 * BROWSER_SESSION_RUNNING, INTERACTION_REQUIRED, DECLINED_SCOPES, INVALID_SCOPE, NETWORK,
 * INVALID_ARGUMENT (also "openid", "profile" or "offline_access" among the scopes), GENERAL.
 */
typedef struct msal_na_sign_in_url {
    size_t size;             /* bytes of this struct as the library filled it */
    const char *url;         /* the authorize URL to open (about 850 characters) */
    /* When no system browser started ("system_browser": true), else NULL (the app's own view opens `url`): */
    const char *short_url;   /* the SDK listener's short address, http://localhost:PORT/ and eight random
                                characters, which redirects to `url` while the sign-in waits: easy to type */
    const char *ssh_command; /* the command to run on the person's own machine, where the browser is, so
                                that short_url reaches this one: "ssh -L PORT:localhost:PORT ada@203.0.113.5"
                                (the destination from $SSH_CONNECTION and $USER, else the placeholder
                                "user@host"; a second -L when the authority is on loopback) */
} msal_na_sign_in_url;
typedef void (*msal_na_sign_in_url_callback)(const msal_na_sign_in_url *info, void *user_data);

msal_na_error msal_na_app_acquire_token(msal_na_app *app, const char *options_json, msal_na_sign_in_url_callback url_callback,
                                        void *url_user_data, msal_na_callback callback, void *user_data);
msal_na_error msal_na_app_acquire_token_wait(msal_na_app *app, const char *options_json, msal_na_sign_in_url_callback url_callback,
                                             void *url_user_data, msal_na_result **out);
/* Ends every browser sign-in started through this library that has not finished (each answers
 * USER_CANCELED), including one started a moment ago whose browser is not open yet; returns how
 * many there were. From any thread, including a URL callback. */
int msal_na_cancel_browser(void);

/* ---- Accounts -------------------------------------------------------------------------------------- */
/*
 * Every account of this application's client id in the token cache, most recently used first (no
 * network). A native sign-in replaces the previous account unless the configuration says
 * "allows_multiple_accounts": true (as MSAL); a browser sign-in never removes one. Each handle gets
 * its own tokens (msal_na_account_get_access_token) and signs out alone (msal_na_account_sign_out).
 * Fills out_accounts[0 .. min(count, capacity)) with handles you own (free each); *out_count gets
 * the number of accounts, which may exceed `capacity` (call again with a larger array). out_accounts
 * may be NULL when capacity is 0. An unusable cache (for example a locked keyring) is its error.
 */
msal_na_error msal_na_app_accounts(msal_na_app *app, msal_na_account **out_accounts, size_t capacity, size_t *out_count);
/* The account with this username / home account id ("uid.utid"), compared case-insensitively;
 * MSAL_NA_ERR_NO_ACCOUNT when none. */
msal_na_error msal_na_app_account_for_username(msal_na_app *app, const char *username, msal_na_account **out_account);
msal_na_error msal_na_app_account_for_id(msal_na_app *app, const char *home_account_id, msal_na_account **out_account);
/* The last problem of the application's token cache (a keyring that became locked, a file that
 * could not be written), as its code (KEYRING_UNAVAILABLE, KEYRING_LOCKED or CACHE) with the message
 * in msal_na_last_error_message; MSAL_NA_OK when none. The SDK carries on in memory meanwhile. */
msal_na_error msal_na_app_last_cache_error(msal_na_app *app);

/* ---- Request interceptor ---------------------------------------------------------------------------- */
/*
 * An application whose native-auth requests carry headers of the app's own: before each request
 * the interceptor receives its URL and adds headers with msal_na_headers_add. Names must start with
 * "x-" and not with "x-ms-", "x-client-", "x-broker-" or "x-app-" (MSAL's reserved prefixes), and be
 * an HTTP token; values must not contain control characters (a line break would split the header)
 * and are at most 4096 bytes; at most 32 headers. msal_na_headers_add refuses anything else with
 * MSAL_NA_ERR_INVALID_ARGUMENT and a message, and the request goes on without that header.
 * The interceptor runs on a thread of the library kept for it (one call at a time, for every
 * application), never on yours; `url` and `headers` are valid during the call only. If it has not
 * returned within 5 s the request goes on without its headers. It may call any function here
 * (a _wait operation started in it waits 5 s for its own interceptor calls, queued behind this one,
 * and then goes without their headers).
 * It is never called after msal_na_app_free returns (which waits for a call in progress), nor after
 * msal_na_detach_callbacks, so `user_data` must stay valid until then. Otherwise as msal_na_app_create.
 */
typedef struct msal_na_headers msal_na_headers;
typedef void (*msal_na_request_interceptor)(const char *url, msal_na_headers *headers, void *user_data);
msal_na_error msal_na_app_create_with_interceptor(const char *config_json, msal_na_request_interceptor interceptor, void *user_data,
                                                  msal_na_app **out_app);
/* During an interceptor call only; MSAL_NA_ERR_INVALID_HANDLE after it returned. A second header of
 * the same name (any case) replaces the first. */
msal_na_error msal_na_headers_add(msal_na_headers *headers, const char *name, const char *value);

/* ---- Keyring ------------------------------------------------------------------------------------- */
/*
 * The token cache as one secret in the desktop keyring (Secret Service: GNOME Keyring, KWallet), in
 * the configuration of msal_na_app_create:
 *   "cache": "keyring",
 *   "keyring": {"schema_name": "com.contoso.todo.tokens",     required
 *               "attributes": {"app": "contoso-todo"},        optional, strings
 *               "signal_file": "/home/ada/.local/share/contoso-todo/token_cache.signal",  required, absolute
 *               "label": "Contoso tokens",                    optional
 *               "fallback": "none" | "file"}                  optional, default "none"
 * The item is the one of the Swift SDK's MSALSecretService product and of MSAL for Python's
 * msal-extensions (LibsecretPersistence with the same schema name, attributes and signal file), and
 * processes sharing it exclude each other through "<signal_file>.lockfile". The keyring is checked
 * when the application is created (the desktop may prompt to unlock it): unusable, the creation
 * fails with MSAL_NA_ERR_KEYRING_UNAVAILABLE or _LOCKED, or with "fallback": "file" uses
 * "cache_file" (else the default file) and logs a warning.
 * libmsalnativeauth.so does not link libsecret: the keyring is reached through
 * libmsalnativeauth-keyring.so (beside it, or $MSAL_NATIVE_AUTH_KEYRING_LIBRARY, or the loader's
 * path), opened with dlopen the first time an application asks for the keyring. Without it or
 * without libsecret-1-0 the library works as before, and asking for the keyring is
 * MSAL_NA_ERR_KEYRING_UNAVAILABLE naming what could not be loaded.
 */

/* ---- Redis ---------------------------------------------------------------------------------------- */
/*
 * The token cache on a Redis server that several processes and machines share (the Swift SDK's
 * MSALRedis product; the repository's docs/redis.md and docs/scale-out.md), in the configuration of
 * msal_na_app_create:
 *   "cache": "redis",
 *   "redis": {"url": "rediss://worker@cache.internal:6380/2",    required: redis://, rediss://, unix://;
 *                                                                  no password in it
 *             "password_file": "/etc/contoso-todo/redis.password", optional: the password, its first line
 *             "ca_file": "/etc/ssl/private-ca.pem",               optional, rediss:// only; default the system's
 *             "key_prefix": "contoso-todo:",                      optional
 *             "encryption_key_file": "/etc/contoso-todo/redis.key", optional: exactly 32 bytes, AES-256-GCM at rest
 *             "check_interval_seconds": 1}                        optional, 0 to 3600, default 1
 * Set "allows_multiple_accounts": true on a shared store: otherwise each sign-in removes the
 * client's other accounts, on every machine. The files are read and the server asked (PING) when
 * the application is created: a bad field or file is MSAL_NA_ERR_INVALID_CONFIG, a server that
 * cannot be used MSAL_NA_ERR_REDIS_UNAVAILABLE. Later failures of the server are the token cache's
 * (a sign-in still completes; tokens in memory are served until they expire).
 */

/* ================================================================================================
 * Native auth V2 (experimental: it may change without notice; do not use it in production)
 *
 * The service-driven flows of the Swift SDK's signInV2 / signUpV2 / resetPasswordV2 (the
 * repository's docs/usage.md, "Native auth V2"): the service decides each step (a choice of
 * methods, a second factor, registering one, a new password) and the application answers the step
 * it is shown. The rules at the top of this file hold here too.
 *
 * Results: the msal_na_outcome values V1 has (SIGNED_IN, CODE_REQUIRED with sent_to/channel/
 * code_length, PASSWORD_REQUIRED, ATTRIBUTES_REQUIRED with the attributes, SIGN_UP_COMPLETED and
 * RESET_PASSWORD_COMPLETED: then msal_na_state_sign_in) and 11 to 15 above; the state is of a
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
 * The starts. options_json (NULL or "" for none; the rules of "Request options" below):
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

#endif /* MSAL_NATIVE_AUTH_H */
