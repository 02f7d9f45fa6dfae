/*
 * msal_native_auth/standard.h: browser sign-in, claims, correlation ids, several accounts, the
 * request interceptor and the keyring.
 *
 * Part of the C interface of MSAL native authentication for Linux. Include <msal_native_auth.h>,
 * which includes every part: the rules at its top (ownership, threads, callbacks, errors) hold here.
 */
#ifndef MSAL_NATIVE_AUTH_STANDARD_H
#define MSAL_NATIVE_AUTH_STANDARD_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================================================
 * Browser sign-in, claims, correlation ids, several accounts, the request interceptor and the
 * keyring: what the Swift SDK's standard surface and parameter classes add (the repository's
 * Bindings/README.md, "Browser, claims, accounts, interceptor, keyring"). The rules at the top of
 * msal_native_auth.h hold here too; what is particular to a call is said beside it.
 *
 * Its error numbers, 40 to 47, are in msal_na_error (types.h: one type for comparisons and switches).
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
 *   "token_cache": "keyring",
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
 *   "token_cache": "redis",
 *   "redis": {"url": "rediss://worker@cache.internal:6380/2",    required: redis://, rediss://, unix://;
 *                                                                  no password in it
 *             "password_file": "/etc/contoso-todo/redis.password", optional: the password, its first line
 *             "ca_file": "/etc/ssl/private-ca.pem",               optional, rediss:// only; default the system's
 *             "key_prefix": "contoso-todo:",                      optional
 *             "encryption_key_file": "/etc/contoso-todo/redis.key", optional: 32 bytes or 64 hex digits, AES-256-GCM
 *             "check_interval_seconds": 1}                        optional, 0 to 3600, default 1
 * Set "allows_multiple_accounts": true on a shared store: otherwise each sign-in removes the
 * client's other accounts, on every machine. The files are read and the server asked (PING) when
 * the application is created: a bad field or file is MSAL_NA_ERR_INVALID_CONFIG, a server that
 * cannot be used MSAL_NA_ERR_REDIS_UNAVAILABLE. Later failures of the server are the token cache's
 * (a sign-in still completes; tokens in memory are served until they expire).
 */

#ifdef __cplusplus
}
#endif

#endif /* MSAL_NATIVE_AUTH_STANDARD_H */
