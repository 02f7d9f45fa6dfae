/*
 * The C interface's browser sign-in, request options (claims, correlation id, refresh token),
 * several accounts, request interceptor and keyring settings against the emulator, with bad input
 * for every new argument. Built with -fsanitize=address,undefined and with -fsanitize=thread by
 * scripts/test-bindings: any crash, memory error, race or leak fails it, as does any check.
 * Usage: parity_test AUTHORITY CLIENT_ID PYTHON SCRIPTED_BROWSER
 *   (a running emulator; PYTHON runs SCRIPTED_BROWSER, Bindings/Python/tests/scripted_browser.py,
 *    which signs in on the emulator's authorize page over HTTP)
 */
#define _GNU_SOURCE
#include "check.h"
#include <pthread.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *python, *script;
static char config[1024], multi_config[1024];

/* ---- Request options ---------------------------------------------------------------------------- */

static void options(msal_na_app *app) {
    msal_na_result *result = NULL;
    /* Bad options: nothing is sent, the message names the problem. */
    const char *bad[][2] = {
        {"{", "not a JSON object"},
        {"[1]", "not a JSON object"},
        {"{\"colour\": 1}", "unknown field 'colour'"},
        {"{\"correlation_id\": \"1234\"}", "'correlation_id'"},
        {"{\"correlation_id\": 5}", "'correlation_id'"},
        {"{\"claims\": \"{not json\"}", "'claims'"},
        {"{\"claims\": {\"colour\": {}}}", "'claims'"},
        {"{\"claims\": 7}", "'claims'"},
        {"{\"scopes\": [1]}", "'scopes'"},
        {"\xff", "UTF-8"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_CODE(msal_na_sign_in_ex_wait(app, "ada@example.com", "x", bad[i][0], &result), MSAL_NA_ERR_INVALID_ARGUMENT);
        CHECK(message_has(bad[i][1]));
        msal_na_result_free(result);
    }
    CHECK_CODE(msal_na_sign_in_ex_wait(app, "ada@example.com", NULL, "{\"force_refresh\": true}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("takes: claims, correlation_id, scopes"));
    CHECK_CODE(msal_na_sign_up_ex_wait(app, "a@b.c", NULL, "{\"attributes\": [1]}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_reset_password_ex_wait(app, "a@b.c", "{\"claims\": {}}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_reset_password_ex_wait(app, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_sign_in_ex(app, "a@b.c", NULL, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_account_get_access_token_ex_wait((msal_na_account *)app, NULL, NULL), MSAL_NA_ERR_INVALID_HANDLE);

    /* The correlation id reaches the service and comes back with its error. */
    const char *flow = "0f8fad5b-d9cb-469f-a165-70867728950e";
    CHECK_CODE(msal_na_sign_in_ex_wait(app, "ada@example.com", "wrong", "{\"correlation_id\": \"0F8FAD5B-D9CB-469F-A165-70867728950E\"}",
                                       &result),
               MSAL_NA_ERR_INVALID_CREDENTIALS);
    char *id = msal_na_result_correlation_id(result);
    CHECK(id && strcmp(id, flow) == 0);
    msal_na_string_free(id);
    msal_na_result_free(result);

    /* A token with its refresh token only when asked; scopes as a list. */
    CHECK_CODE(msal_na_sign_in_ex_wait(app, "ada@example.com", "Analytical-Engine-1843",
                                       "{\"scopes\": [\"api://emulator/todolist/ToDoList.Read\"], \"correlation_id\": \"0f8fad5b-d9cb-469f-a165-70867728950e\"}",
                                       &result),
               MSAL_NA_OK);
    msal_na_account *account = msal_na_result_take_account(result);
    msal_na_result_free(result);
    CHECK(account != NULL);
    CHECK_CODE(msal_na_account_get_access_token_ex_wait(account, "{\"scopes\": \"api://emulator/todolist/ToDoList.Read\"}", &result),
               MSAL_NA_OK);
    CHECK(msal_na_result_refresh_token(result) == NULL);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_account_get_access_token_ex_wait(
                   account, "{\"scopes\": \"api://emulator/todolist/ToDoList.Read\", \"return_refresh_token\": true, \"force_refresh\": true}",
                   &result),
               MSAL_NA_OK);
    char *refresh = msal_na_result_refresh_token(result);
    CHECK(refresh && strlen(refresh) > 10);
    msal_na_string_free(refresh);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_account_get_access_token_ex_wait(account, "{\"return_refresh_token\": 1}", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("'return_refresh_token' must be true or false"));
    msal_na_account_sign_out(account);
    msal_na_account_free(account);

    /* Claims challenges. */
    char *claims = msal_na_claims_from_challenge(
        "Bearer realm=\"\", error=\"insufficient_claims\", "
        "claims=\"eyJhY2Nlc3NfdG9rZW4iOnsiYWNycyI6eyJlc3NlbnRpYWwiOnRydWUsInZhbHVlIjoiYzEifX19\"");
    CHECK(claims && strstr(claims, "\"acrs\"") && strstr(claims, "\"c1\""));
    msal_na_string_free(claims);
    CHECK(msal_na_claims_from_challenge("Bearer error=\"invalid_token\"") == NULL);
    CHECK(message_has("carries no claims challenge"));
    CHECK(msal_na_claims_from_challenge(NULL) == NULL);
    CHECK(message_has("'www_authenticate' is NULL"));
    CHECK(msal_na_claims_from_challenge("claims=\"\xff\"") == NULL);
    CHECK(message_has("UTF-8"));
}

#include "parity_browser.h"

/* ---- Accounts ------------------------------------------------------------------------------------ */

static size_t account_count(msal_na_app *app) {
    size_t count = 99;
    CHECK_CODE(msal_na_app_accounts(app, NULL, 0, &count), MSAL_NA_OK);
    return count;
}

static void accounts(void) {
    msal_na_app *app = NULL;
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_app_create(multi_config, &app), MSAL_NA_OK);
    CHECK(account_count(app) == 0);
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    msal_na_result_free(result);
    /* A second account, signed in in the browser (Alan: MFA, which the page does). */
    struct browser *browser = new_browser("password");
    browser->username = "alan@example.com";
    browser->password = "Turing-Machine-1936";
    CHECK_CODE(msal_na_app_acquire_token_wait(app, NULL, on_sign_in_url, browser, NULL), MSAL_NA_OK);
    free_browser(browser);
    CHECK(account_count(app) == 2);
    /* A native sign-in keeps the others here ("allows_multiple_accounts"). */
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    msal_na_result_free(result);
    size_t count = 0;
    msal_na_account *list[4] = {0};
    CHECK_CODE(msal_na_app_accounts(app, list, 1, &count), MSAL_NA_OK); /* more than fit: the count says so */
    CHECK(count == 2 && list[0] != NULL && list[1] == NULL);
    msal_na_account_free(list[0]);
    CHECK_CODE(msal_na_app_accounts(app, list, 4, &count), MSAL_NA_OK);
    CHECK(count == 2 && list[0] && list[1] && !list[2]);
    for (int i = 0; i < 2; i++) msal_na_account_free(list[i]);

    msal_na_account *alan = NULL, *by_id = NULL;
    CHECK_CODE(msal_na_app_account_for_username(app, "ALAN@example.com", &alan), MSAL_NA_OK);
    char *id = msal_na_account_home_account_id(alan);
    CHECK_CODE(msal_na_app_account_for_id(app, id, &by_id), MSAL_NA_OK);
    char *name = msal_na_account_username(by_id);
    CHECK(name && strcmp(name, "alan@example.com") == 0);
    /* A token for an account that is not the most recent one, from its own refresh token. */
    CHECK_CODE(msal_na_account_get_access_token_wait(by_id, "api://emulator/todolist/ToDoList.Read", 1, NULL), MSAL_NA_OK);
    msal_na_string_free(name);
    msal_na_string_free(id);
    msal_na_account *none = (msal_na_account *)0x1;
    CHECK_CODE(msal_na_app_account_for_username(app, "nobody@example.com", &none), MSAL_NA_ERR_NO_ACCOUNT);
    CHECK(none == NULL);
    CHECK_CODE(msal_na_app_account_for_id(app, "nobody.nowhere", &none), MSAL_NA_ERR_NO_ACCOUNT);
    CHECK(none == NULL);
    CHECK_CODE(msal_na_app_account_for_id(app, NULL, &none), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_account_for_username(app, "ada@example.com", NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_account_for_username(app, "\xc3\x28", &none), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_accounts(app, NULL, 2, &count), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(count == 0);
    CHECK_CODE(msal_na_app_accounts(app, list, 4, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_accounts((msal_na_app *)alan, list, 4, &count), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK_CODE(msal_na_app_last_cache_error(app), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_last_cache_error(NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    /* Each signs out alone. */
    CHECK_CODE(msal_na_account_sign_out(alan), MSAL_NA_OK);
    CHECK(account_count(app) == 1);
    CHECK_CODE(msal_na_app_account_for_id(app, "nobody.nowhere", &none), MSAL_NA_ERR_NO_ACCOUNT);
    msal_na_account_free(alan);
    msal_na_account_free(by_id);
    msal_na_app_free(app);

    /* MSAL's default: a native sign-in replaces the account a browser sign-in left. */
    CHECK_CODE(msal_na_app_create(config, &app), MSAL_NA_OK);
    browser = new_browser("password");
    browser->username = "alan@example.com";
    browser->password = "Turing-Machine-1936";
    CHECK_CODE(msal_na_app_acquire_token_wait(app, NULL, on_sign_in_url, browser, NULL), MSAL_NA_OK);
    free_browser(browser);
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, NULL), MSAL_NA_OK);
    CHECK(account_count(app) == 1);
    CHECK_CODE(msal_na_app_account_for_username(app, "alan@example.com", &none), MSAL_NA_ERR_NO_ACCOUNT);
    msal_na_app_free(app);
}

/* ---- Request interceptor ------------------------------------------------------------------------- */

struct interceptor {
    pthread_mutex_t lock;
    int calls, accepted, refused_reserved, refused_line;
    msal_na_headers *kept;
    pthread_t caller;
    int other_thread;
};

static void intercept(const char *url, msal_na_headers *headers, void *user_data) {
    struct interceptor *seen = user_data;
    int accepted = msal_na_headers_add(headers, "x-contoso-region", "eu-west") == MSAL_NA_OK;
    int reserved = msal_na_headers_add(headers, "x-ms-forged", "1") == MSAL_NA_ERR_INVALID_ARGUMENT && message_has("x-ms-");
    int line = msal_na_headers_add(headers, "x-line", "a\r\nx-injected: 1") == MSAL_NA_ERR_INVALID_ARGUMENT;
    msal_na_headers_add(headers, NULL, "x"); /* refused, nothing else happens */
    pthread_mutex_lock(&seen->lock);
    seen->calls += url && strstr(url, "/oauth2/v2.0/") != NULL;
    seen->accepted += accepted;
    seen->refused_reserved += reserved;
    seen->refused_line += line;
    seen->kept = headers;
    seen->other_thread = !pthread_equal(pthread_self(), seen->caller);
    pthread_mutex_unlock(&seen->lock);
}

static void interceptor(void) {
    struct interceptor seen = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, NULL, pthread_self(), 0};
    msal_na_app *app = (msal_na_app *)0x1;
    CHECK_CODE(msal_na_app_create_with_interceptor(config, NULL, NULL, &app), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(app == NULL);
    CHECK_CODE(msal_na_app_create_with_interceptor("{", intercept, &seen, &app), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK_CODE(msal_na_app_create_with_interceptor(config, intercept, &seen, &app), MSAL_NA_OK);
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    msal_na_account *account = msal_na_result_take_account(result);
    msal_na_result_free(result);
    pthread_mutex_lock(&seen.lock);
    int calls = seen.calls;
    CHECK(calls >= 2 && seen.accepted == calls && seen.refused_reserved == calls && seen.refused_line == calls && seen.other_thread);
    msal_na_headers *stale = seen.kept;
    pthread_mutex_unlock(&seen.lock);
    CHECK_CODE(msal_na_headers_add(stale, "x-late", "1"), MSAL_NA_ERR_INVALID_HANDLE); /* the call has returned */
    CHECK_CODE(msal_na_app_free(app), MSAL_NA_OK);
    /* Not called after the application was freed: the account's refresh goes out without it. */
    CHECK_CODE(msal_na_account_get_access_token_wait(account, "api://emulator/todolist/ToDoList.Read", 1, NULL), MSAL_NA_OK);
    pthread_mutex_lock(&seen.lock);
    CHECK(seen.calls == calls);
    pthread_mutex_unlock(&seen.lock);
    msal_na_account_sign_out(account);
    msal_na_account_free(account);
}

/* ---- Keyring settings ---------------------------------------------------------------------------- */

static void keyring(const char *authority, const char *client_id) {
    char json[2048];
    msal_na_app *app = NULL;
    snprintf(json, sizeof json,
             "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"keyring\", \"keyring\": {\"schema_name\": \"com.example.t\"}}",
             client_id, authority);
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("keyring.signal_file"));
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"keyring\"}", client_id, authority);
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_ERR_INVALID_CONFIG);
    /* Without the keyring library (as on a machine without libsecret): a clear error, or the file. */
    setenv("MSAL_NATIVE_AUTH_KEYRING_LIBRARY", "/nonexistent/libmsalnativeauth-keyring.so", 1);
    snprintf(json, sizeof json,
             "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"keyring\", \"cache_file\": \"/tmp/msal-na-parity-%d.json\", "
             "\"keyring\": {\"schema_name\": \"com.example.t\", \"signal_file\": \"/tmp/msal-na-parity.signal\"}}",
             client_id, authority, (int)getpid());
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_ERR_KEYRING_UNAVAILABLE);
    CHECK(message_has("libmsalnativeauth-keyring.so"));
    CHECK(app == NULL);
    char *fallback = strstr(json, "\"signal_file\"");
    memmove(fallback + 20, fallback, strlen(fallback) + 1);
    memcpy(fallback, "\"fallback\": \"file\", ", 20);
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    msal_na_app_free(app);
    char file[64];
    snprintf(file, sizeof file, "/tmp/msal-na-parity-%d.json", (int)getpid());
    unlink(file);
    unsetenv("MSAL_NATIVE_AUTH_KEYRING_LIBRARY");
}

int main(int argc, char **argv) {
    if (argc != 5) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID PYTHON SCRIPTED_BROWSER\n", argv[0]), 2;
    python = argv[3];
    script = argv[4];
    snprintf(config, sizeof config, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", argv[2], argv[1]);
    snprintf(multi_config, sizeof multi_config,
             "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\", \"allows_multiple_accounts\": true}", argv[2], argv[1]);
    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(config, &app), MSAL_NA_OK);
    options(app);
    browser_sign_in(app);
    browser_from_a_callback(app);
    accounts();
    interceptor();
    keyring(argv[1], argv[2]);
    CHECK_CODE(msal_na_app_free(app), MSAL_NA_OK);
    return report("parity test");
}
