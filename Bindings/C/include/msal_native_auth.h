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
 *
 * == The parts ==
 * This header includes the whole interface, in four parts under msal_native_auth/: types.h (handles,
 * error codes, outcomes, state kinds), core.h (the application, flows, states, saved states,
 * accounts and tokens, results, logging, strings), standard.h (browser sign-in, claims, several
 * accounts, the request interceptor, the keyring) and v2.h (native auth V2, experimental).
 * Include this header, not a part.
 */
#ifndef MSAL_NATIVE_AUTH_H
#define MSAL_NATIVE_AUTH_H

#define MSAL_NA_VERSION "0.1.0"

#include "msal_native_auth/types.h"
#include "msal_native_auth/core.h"
#include "msal_native_auth/standard.h"
#include "msal_native_auth/v2.h"

#endif /* MSAL_NATIVE_AUTH_H */
