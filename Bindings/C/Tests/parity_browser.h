/*
 * parity_test.c's browser sign-in, by topic: the URL callback, the scripted browser it starts, the
 * blocking and callback forms, cancelling, and a sign-in started from a result callback. Included
 * once, by parity_test.c, after its globals (python, script, config, multi_config): one translation
 * unit, built and run as before.
 */
#ifndef MSAL_NA_PARITY_BROWSER_H
#define MSAL_NA_PARITY_BROWSER_H

/* ---- Browser sign-in ---------------------------------------------------------------------------- */

/* What a URL callback saw, and what the test's browser should do. */
struct browser {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int calls, done, results, url_returned_before_result;
    size_t size;
    char url[4096];
    /* The short address and the ssh -L line ("" when NULL); the browser opens the short address when there is one. */
    char short_url[256], ssh_command[512];
    const char *mode; /* "password", "cancel" (the page's button), "library-cancel" (msal_na_cancel_browser),
                         "cancel-and-linger" (msal_na_cancel_browser, then stays a while), "nothing" */
    const char *username, *password;
    pthread_t caller;
    int other_thread;
    msal_na_result *result;
};

static void run_browser(const struct browser *browser, const char *url) {
    char *arguments[8] = {(char *)python, (char *)script};
    int count = 2;
    if (strcmp(browser->mode, "password") == 0) {
        arguments[count++] = "--password";
        arguments[count++] = (char *)browser->username;
        arguments[count++] = (char *)browser->password;
    } else {
        arguments[count++] = "--cancel";
    }
    arguments[count++] = (char *)url;
    arguments[count] = NULL;
    pid_t pid;
    if (posix_spawnp(&pid, python, NULL, NULL, arguments, environ) == 0) waitpid(pid, NULL, 0);
}

static void *browser_thread(void *data) {
    struct browser *browser = data;
    run_browser(browser, browser->short_url[0] ? browser->short_url : browser->url);
    return NULL;
}

/* Whether `field` of the callback's msal_na_sign_in_url is within the `size` the library filled. */
#define SIGN_IN_URL_HAS(info, field) ((info)->size >= offsetof(msal_na_sign_in_url, field) + sizeof((info)->field))

static void on_sign_in_url(const msal_na_sign_in_url *info, void *user_data) {
    struct browser *browser = user_data;
    pthread_mutex_lock(&browser->lock);
    browser->calls++;
    browser->size = info->size;
    snprintf(browser->url, sizeof browser->url, "%s", SIGN_IN_URL_HAS(info, url) && info->url ? info->url : "");
    snprintf(browser->short_url, sizeof browser->short_url, "%s",
             SIGN_IN_URL_HAS(info, short_url) && info->short_url ? info->short_url : "");
    snprintf(browser->ssh_command, sizeof browser->ssh_command, "%s",
             SIGN_IN_URL_HAS(info, ssh_command) && info->ssh_command ? info->ssh_command : "");
    browser->other_thread = !pthread_equal(pthread_self(), browser->caller);
    pthread_mutex_unlock(&browser->lock);
    if (strcmp(browser->mode, "library-cancel") == 0) {
        msal_na_cancel_browser();
    } else if (strcmp(browser->mode, "cancel-and-linger") == 0) {
        /* The sign-in ends (its task is gone once the cancel count is 0), but its result must wait
         * for this callback to return; a while more gives a result that did not wait time to arrive. */
        for (int i = 0; i < 1000 && msal_na_cancel_browser() != 0; i++) usleep(10000);
        usleep(200000);
    } else if (strcmp(browser->mode, "nothing") != 0) {
        pthread_t thread; /* the browser runs on; the callback returns at once */
        pthread_create(&thread, NULL, browser_thread, browser);
        pthread_detach(thread);
    }
    pthread_mutex_lock(&browser->lock);
    browser->done = 1;
    pthread_mutex_unlock(&browser->lock);
}

static void on_browser_result(msal_na_result *result, void *user_data) {
    struct browser *browser = user_data;
    pthread_mutex_lock(&browser->lock);
    browser->url_returned_before_result = browser->calls == 0 || browser->done;
    browser->result = result;
    browser->results++;
    pthread_cond_signal(&browser->changed);
    pthread_mutex_unlock(&browser->lock);
}

static struct browser *new_browser(const char *mode) {
    struct browser *browser = calloc(1, sizeof *browser);
    pthread_mutex_init(&browser->lock, NULL);
    pthread_cond_init(&browser->changed, NULL);
    browser->mode = mode;
    browser->username = "ada@example.com";
    browser->password = "Analytical-Engine-1843";
    browser->caller = pthread_self();
    return browser;
}

/* Waits for the result of a sign-in started in the callback form (on_browser_result). */
static void wait_for_result(struct browser *browser) {
    pthread_mutex_lock(&browser->lock);
    while (browser->results == 0) pthread_cond_wait(&browser->changed, &browser->lock);
    pthread_mutex_unlock(&browser->lock);
}

static void free_browser(struct browser *browser) {
    pthread_mutex_destroy(&browser->lock);
    pthread_cond_destroy(&browser->changed);
    free(browser);
}

/* Waits until no browser sign-in of this process runs (a cancelled one answers a moment later). */
static void wait_until_idle(void) {
    for (int i = 0; i < 1000 && msal_na_cancel_browser() != 0; i++) usleep(10000);
}

static char *username_of(msal_na_result *result) {
    msal_na_account *account = msal_na_result_take_account(result);
    char *name = msal_na_account_username(account);
    msal_na_account_free(account);
    return name;
}

static void browser_sign_in(msal_na_app *app) {
    const char *scopes = "{\"scopes\": [\"api://emulator/todolist/ToDoList.Read\"], \"login_hint\": \"ada@example.com\"}";
    msal_na_result *result = NULL;

    /* The app shows the address (its callback starts the scripted browser and returns). */
    struct browser *browser = new_browser("password");
    CHECK_CODE(msal_na_app_acquire_token_wait(app, scopes, on_sign_in_url, browser, &result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_ACCESS_TOKEN);
    char *token = msal_na_result_access_token(result), *name = username_of(result);
    CHECK(token && strlen(token) > 20);
    CHECK(name && strcmp(name, "ada@example.com") == 0);
    CHECK(browser->calls == 1 && browser->other_thread && browser->size >= sizeof(msal_na_sign_in_url));
    CHECK(strstr(browser->url, "/oauth2/v2.0/authorize?") && strstr(browser->url, "code_challenge_method=S256"));
    CHECK(browser->short_url[0] == 0 && browser->ssh_command[0] == 0); /* the app's own view: only the URL */
    msal_na_string_free(token);
    msal_na_string_free(name);
    msal_na_result_free(result);
    free_browser(browser);
    msal_na_account *current = NULL;
    CHECK_CODE(msal_na_app_current_account(app, &current), MSAL_NA_OK); /* the tokens are in the app's cache */
    CHECK_CODE(msal_na_account_sign_out(current), MSAL_NA_OK);
    msal_na_account_free(current);

    /* The callback form: the result comes after the URL callback returned. */
    browser = new_browser("password");
    CHECK_CODE(msal_na_app_acquire_token(app, scopes, on_sign_in_url, browser, on_browser_result, browser), MSAL_NA_OK);
    wait_for_result(browser);
    CHECK(msal_na_result_error(browser->result) == MSAL_NA_OK && browser->url_returned_before_result);
    msal_na_result_free(browser->result);
    free_browser(browser);

    /* The system browser by default ($BROWSER: the scripted browser; no display). */
    char command[2048];
    snprintf(command, sizeof command, "%s %s --password ada@example.com Analytical-Engine-1843", python, script);
    setenv("BROWSER", command, 1);
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    CHECK_CODE(msal_na_app_acquire_token_wait(app, scopes, NULL, NULL, &result), MSAL_NA_OK);
    name = username_of(result);
    CHECK(name && strcmp(name, "ada@example.com") == 0);
    msal_na_string_free(name);
    msal_na_result_free(result);

    /* No browser starts: at once without a callback; with one and system_browser, the callback. */
    setenv("BROWSER", "/bin/false", 1);
    CHECK_CODE(msal_na_app_acquire_token_wait(app, scopes, NULL, NULL, NULL), MSAL_NA_ERR_NO_BROWSER);
    CHECK(message_has("BROWSER"));
    /* That callback also gets the short address and the ssh -L line; the browser signs in through
     * the short address, which redirects to the authorize page. */
    browser = new_browser("password");
    CHECK_CODE(msal_na_app_acquire_token_wait(
                   app, "{\"system_browser\": true, \"scopes\": \"api://emulator/todolist/ToDoList.Read\", \"timeout_seconds\": 60}",
                   on_sign_in_url, browser, NULL),
               MSAL_NA_OK);
    CHECK(browser->calls == 1 && strstr(browser->url, "/oauth2/v2.0/authorize?"));
    int port = 0;
    const char *path = strrchr(browser->short_url, '/');
    CHECK(sscanf(browser->short_url, "http://localhost:%d/", &port) == 1 && port > 0 && path && strlen(path + 1) == 8);
    char forward[64];
    snprintf(forward, sizeof forward, "ssh -L %d:localhost:%d ", port, port);
    CHECK(strncmp(browser->ssh_command, forward, strlen(forward)) == 0);
    free_browser(browser);

    /* Cancellation: from the callback, by the page's Cancel, by the timeout. */
    const char *modes[] = {"library-cancel", "cancel", "nothing"};
    for (size_t i = 0; i < 3; i++) {
        browser = new_browser(modes[i]);
        const char *options = i == 2 ? "{\"timeout_seconds\": 0.3}" : NULL;
        CHECK_CODE(msal_na_app_acquire_token_wait(app, options, on_sign_in_url, browser, NULL), MSAL_NA_ERR_USER_CANCELED);
        wait_until_idle();
        free_browser(browser);
    }
    CHECK(msal_na_cancel_browser() == 0); /* nothing runs */

    /* The result is delivered only after the URL callback returned, even when the sign-in ends first. */
    browser = new_browser("cancel-and-linger");
    CHECK_CODE(msal_na_app_acquire_token(app, NULL, on_sign_in_url, browser, on_browser_result, browser), MSAL_NA_OK);
    wait_for_result(browser);
    CHECK(msal_na_result_error(browser->result) == MSAL_NA_ERR_USER_CANCELED && browser->url_returned_before_result);
    msal_na_result_free(browser->result);
    free_browser(browser);
    wait_until_idle();

    /* A cancel right after the start, before the sign-in's task runs, is not lost to timing. */
    browser = new_browser("nothing");
    CHECK_CODE(msal_na_app_acquire_token(app, "{\"timeout_seconds\": 60}", on_sign_in_url, browser, on_browser_result, browser),
               MSAL_NA_OK);
    CHECK(msal_na_cancel_browser() == 1);
    wait_for_result(browser);
    CHECK(msal_na_result_error(browser->result) == MSAL_NA_ERR_USER_CANCELED);
    char *why = msal_na_result_message(browser->result);
    CHECK(why && strstr(why, "cancelled") && !strstr(why, "timed out"));
    msal_na_string_free(why);
    msal_na_result_free(browser->result);
    free_browser(browser);
    wait_until_idle();

    /* Bad input: refused before anything starts, and the next sign-in works. */
    const char *bad[][2] = {
        {"{\"system_browser\": false}", "needs a URL callback"},
        {"{\"prompt\": \"sometimes\"}", "'prompt'"},
        {"{\"timeout_seconds\": -1}", "'timeout_seconds'"},
        {"{\"timeout_seconds\": true}", "'timeout_seconds'"},
        {"{\"extra_query_parameters\": {\"a\": 1}}", "'extra_query_parameters'"},
        {"{\"login_hint\": \"\"}", "'login_hint'"},
        {"{\"force_refresh\": true}", "unknown field 'force_refresh'"},
        {"{\"scopes\": \"openid\"}", "reserved scope"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_CODE(msal_na_app_acquire_token_wait(app, bad[i][0], NULL, NULL, &result), MSAL_NA_ERR_INVALID_ARGUMENT);
        CHECK(message_has(bad[i][1]));
        msal_na_result_free(result);
    }
    CHECK_CODE(msal_na_app_acquire_token(app, NULL, NULL, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK_CODE(msal_na_app_acquire_token_wait((msal_na_app *)0x1234, NULL, NULL, NULL, NULL), MSAL_NA_ERR_INVALID_HANDLE);
    CHECK(msal_na_cancel_browser() == 0);
}

/* A result callback may start a browser sign-in and wait for it: URL callbacks have a thread of
 * their own, so the waiting callback does not block the sign-in's URL callback. */
struct nested {
    msal_na_app *app;
    pthread_mutex_t lock;
    pthread_cond_t done;
    int finished, inner;
};

static void on_nested_result(msal_na_result *result, void *user_data) {
    struct nested *nested = user_data;
    struct browser *browser = new_browser("library-cancel");
    int inner = msal_na_app_acquire_token_wait(nested->app, NULL, on_sign_in_url, browser, NULL);
    free_browser(browser);
    msal_na_result_free(result);
    pthread_mutex_lock(&nested->lock);
    nested->inner = inner;
    nested->finished = 1;
    pthread_cond_signal(&nested->done);
    pthread_mutex_unlock(&nested->lock);
}

static void browser_from_a_callback(msal_na_app *app) {
    struct nested nested = {app, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    CHECK_CODE(msal_na_reset_password(app, "nobody@example.com", on_nested_result, &nested), MSAL_NA_OK);
    pthread_mutex_lock(&nested.lock);
    while (!nested.finished) pthread_cond_wait(&nested.done, &nested.lock);
    pthread_mutex_unlock(&nested.lock);
    CHECK(nested.inner == MSAL_NA_ERR_USER_CANCELED);
    wait_until_idle();
}

#endif
