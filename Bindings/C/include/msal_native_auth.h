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
 *     once. MSAL_NA_OK means `callback` will be called exactly once, later, with a result; any
 *     other return means it will not be called (msal_na_last_error_message says why).
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
    MSAL_NA_OUTCOME_ACCESS_TOKEN = 10          /* msal_na_result_access_token, _expires_on, _scopes */
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
    MSAL_NA_STATE_REGISTER_STRONG_AUTH_VERIFICATION_REQUIRED = 13
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

#endif /* MSAL_NATIVE_AUTH_H */
