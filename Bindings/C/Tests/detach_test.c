/*
 * msal_na_detach_callbacks against the emulator: it waits for a callback in progress on another
 * thread, a callback may call it too, and after it nothing calls the test again (the result of a
 * browser sign-in still waiting for the user, log lines, an interceptor, a URL callback) while the
 * _wait forms go on working and a callback form is refused. The callbacks' user data is freed as
 * soon as the detach returned, so a late call is also a use after free under AddressSanitizer.
 * Built with -fsanitize=address,undefined and with -fsanitize=thread by scripts/test-bindings.
 * Detaching cannot be undone, so it has a process of its own.
 * Usage: detach_test AUTHORITY CLIENT_ID
 */
#include "check.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static char config[1024];
static atomic_int detached, late_calls; /* set once the detach returned; calls after that */

/* One kind of callback's calls, and a condition to wait for the first. */
struct seen {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int calls;
};

static struct seen *new_seen(void) {
    struct seen *seen = calloc(1, sizeof *seen);
    pthread_mutex_init(&seen->lock, NULL);
    pthread_cond_init(&seen->changed, NULL);
    return seen;
}

static void free_seen(struct seen *seen) {
    pthread_mutex_destroy(&seen->lock);
    pthread_cond_destroy(&seen->changed);
    free(seen);
}

static void note(struct seen *seen) {
    if (atomic_load(&detached)) atomic_fetch_add(&late_calls, 1);
    pthread_mutex_lock(&seen->lock);
    seen->calls++;
    pthread_cond_broadcast(&seen->changed);
    pthread_mutex_unlock(&seen->lock);
}

static int calls_of(struct seen *seen) {
    pthread_mutex_lock(&seen->lock);
    int calls = seen->calls;
    pthread_mutex_unlock(&seen->lock);
    return calls;
}

static void wait_for_call(struct seen *seen) {
    pthread_mutex_lock(&seen->lock);
    while (seen->calls == 0) pthread_cond_wait(&seen->changed, &seen->lock);
    pthread_mutex_unlock(&seen->lock);
}

static void on_log(int level, const char *message, int contains_pii, void *user_data) {
    (void)level, (void)message, (void)contains_pii;
    note(user_data);
}

static void on_url(const msal_na_sign_in_url *info, void *user_data) {
    (void)info;
    note(user_data);
}

static void on_result(msal_na_result *result, void *user_data) {
    msal_na_result_free(result);
    note(user_data);
}

static void intercept(const char *url, msal_na_headers *headers, void *user_data) {
    (void)url;
    msal_na_headers_add(headers, "x-contoso-detach", "1");
    note(user_data);
}

/* A result callback that is still running when another thread detaches: it waits to be released,
 * then detaches as well (a callback may; it does not wait for itself). */
struct blocking {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int entered, released, inner_detach_returned, returned;
};

static void on_blocking_result(msal_na_result *result, void *user_data) {
    struct blocking *blocking = user_data;
    msal_na_result_free(result);
    pthread_mutex_lock(&blocking->lock);
    blocking->entered = 1;
    pthread_cond_broadcast(&blocking->changed);
    while (!blocking->released) pthread_cond_wait(&blocking->changed, &blocking->lock);
    pthread_mutex_unlock(&blocking->lock);
    msal_na_detach_callbacks();
    pthread_mutex_lock(&blocking->lock);
    blocking->inner_detach_returned = 1;
    blocking->returned = 1; /* the last thing the callback does */
    pthread_mutex_unlock(&blocking->lock);
}

struct detacher {
    struct blocking *blocking;
    atomic_int started;
    int callback_had_returned;
};

static void *detach_thread(void *data) {
    struct detacher *detacher = data;
    atomic_store(&detacher->started, 1);
    msal_na_detach_callbacks();
    pthread_mutex_lock(&detacher->blocking->lock);
    detacher->callback_had_returned = detacher->blocking->returned;
    pthread_mutex_unlock(&detacher->blocking->lock);
    return NULL;
}

/* Waits until no browser sign-in of this process runs (a cancelled one answers a moment later). */
static void wait_until_idle(void) {
    for (int i = 0; i < 1000 && msal_na_cancel_browser() != 0; i++) usleep(10000);
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    snprintf(config, sizeof config, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", argv[2], argv[1]);
    struct seen *logged = new_seen(), *intercepted = new_seen(), *shown = new_seen(), *delivered = new_seen();
    msal_na_app *app = NULL, *intercepted_app = NULL;
    CHECK_CODE(msal_na_set_log_callback(MSAL_NA_LOG_VERBOSE, 0, on_log, logged), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_create(config, &app), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_create_with_interceptor(config, intercept, intercepted, &intercepted_app), MSAL_NA_OK);

    /* Every kind of callback is called before the detach. */
    CHECK_CODE(msal_na_sign_in_wait(intercepted_app, "ada@example.com", "Analytical-Engine-1843", NULL, NULL), MSAL_NA_OK);
    msal_na_flush_log();
    CHECK(calls_of(logged) > 0 && calls_of(intercepted) > 0);
    /* A browser sign-in waits for the user: its URL was shown, its result is due when it ends. */
    CHECK_CODE(msal_na_app_acquire_token(app, NULL, on_url, shown, on_result, delivered), MSAL_NA_OK);
    wait_for_call(shown);

    /* A result callback in progress while another thread detaches: the detach returns after it. */
    struct blocking blocking = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0};
    CHECK_CODE(msal_na_reset_password(app, "nobody@example.com", on_blocking_result, &blocking), MSAL_NA_OK);
    pthread_mutex_lock(&blocking.lock);
    while (!blocking.entered) pthread_cond_wait(&blocking.changed, &blocking.lock);
    pthread_mutex_unlock(&blocking.lock);
    struct detacher detacher = {&blocking, 0, 0};
    pthread_t thread;
    pthread_create(&thread, NULL, detach_thread, &detacher);
    while (!atomic_load(&detacher.started)) usleep(1000);
    usleep(100000); /* time for a detach that did not wait to return early */
    pthread_mutex_lock(&blocking.lock);
    blocking.released = 1;
    pthread_cond_broadcast(&blocking.changed);
    pthread_mutex_unlock(&blocking.lock);
    pthread_join(thread, NULL);
    CHECK(detacher.callback_had_returned && blocking.inner_detach_returned);
    msal_na_detach_callbacks(); /* again, from here: nothing to wait for */
    atomic_store(&detached, 1);
    CHECK(calls_of(delivered) == 0);
    free_seen(logged);
    free_seen(intercepted);
    free_seen(shown);
    free_seen(delivered);

    /* The browser sign-in ends: its result is freed by the library, not delivered. */
    CHECK(msal_na_cancel_browser() == 1);
    wait_until_idle();
    /* The _wait forms work; the interceptor and the log callback are not called. */
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(intercepted_app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    msal_na_account *account = msal_na_result_take_account(result);
    msal_na_result_free(result);
    CHECK_CODE(msal_na_account_get_access_token_wait(account, "api://emulator/todolist/ToDoList.Read", 1, NULL), MSAL_NA_OK);
    msal_na_account_sign_out(account);
    msal_na_account_free(account);
    msal_na_flush_log();
    /* A browser sign-in shows its URL to nobody and ends at its timeout; its result comes after
     * the URL callback would have returned. */
    struct seen *after = new_seen();
    CHECK_CODE(msal_na_app_acquire_token_wait(app, "{\"timeout_seconds\": 0.3}", on_url, after, NULL), MSAL_NA_ERR_USER_CANCELED);
    CHECK(calls_of(after) == 0);
    free_seen(after);
    /* A callback form is refused: its callback would never be called. */
    CHECK_CODE(msal_na_sign_in(app, "ada@example.com", "Analytical-Engine-1843", NULL, on_result, NULL), MSAL_NA_ERR_INVALID_ARGUMENT);
    CHECK(message_has("msal_na_detach_callbacks"));
    CHECK(atomic_load(&late_calls) == 0);

    CHECK_CODE(msal_na_set_log_callback(MSAL_NA_LOG_NOTHING, 0, NULL, NULL), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_free(intercepted_app), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_free(app), MSAL_NA_OK);
    return report("detach test");
}
