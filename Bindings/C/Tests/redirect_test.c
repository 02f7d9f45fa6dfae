/*
 * No request follows a redirect, at the C boundary: the emulator is told (faults hook, over curl) to
 * answer the next V1 `initiate`, V2 `authorize-challenge` or token request with 301, 302, 303, 307
 * or 308 pointing at a listener of this test on 127.0.0.2, which counts every connection. Each
 * sign-in ends with MSAL_NA_ERR_NETWORK and a message naming the status and that host, and the
 * listener is never reached (the _wait call returns the same error as its result). Built and run by scripts/test-bindings like the other C tests.
 * Usage: redirect_test AUTHORITY CLIENT_ID   (a running emulator)
 */
#include <arpa/inet.h>
#include <msal_native_auth.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

static char base[512], config[1024];
static int listener = -1, reached;
static pthread_mutex_t reached_lock = PTHREAD_MUTEX_INITIALIZER;

/* Counts each connection and closes it. Ends when the listener is shut down. */
static void *record(void *unused) {
    (void)unused;
    for (;;) {
        int connection = accept(listener, NULL, NULL);
        if (connection < 0) return NULL;
        pthread_mutex_lock(&reached_lock);
        reached++;
        pthread_mutex_unlock(&reached_lock);
        close(connection);
    }
}

/* Listens on 127.0.0.2 (a free port); returns the port, 0 on failure. */
static int start_listener(void) {
    struct sockaddr_in address = {0};
    socklen_t length = sizeof address;
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = inet_addr("127.0.0.2");
    listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 16) != 0 ||
        getsockname(listener, (struct sockaddr *)&address, &length) != 0)
        return 0;
    return ntohs(address.sin_port);
}

/* The next request to `endpoint` answers `status` with a Location on the listener. */
static void redirect_next(const char *endpoint, int status, int port) {
    char command[2048];
    snprintf(command, sizeof command,
             "curl -s -o /dev/null -w '%%{http_code}' -X POST -H 'Content-Type: application/json' --data "
             "'[{\"endpoint\": \"%s\", \"status\": %d, \"location\": \"http://127.0.0.2:%d/t/oauth2/v2.0/initiate\"}]' "
             "'%s/_emulator/faults'",
             endpoint, status, port, base);
    FILE *pipe = popen(command, "r");
    char answer[16] = {0};
    if (pipe) {
        if (!fgets(answer, sizeof answer, pipe)) answer[0] = '\0';
        pclose(pipe);
    }
    CHECK(strcmp(answer, "200") == 0);
}

/* The result is a network error whose message names `status` and the listener; frees it. */
static void expect_refused(msal_na_result *result, int status, int port) {
    CHECK_CODE(msal_na_result_error(result), MSAL_NA_ERR_NETWORK);
    char *message = msal_na_result_message(result);
    char wanted_status[32], wanted_host[64];
    snprintf(wanted_status, sizeof wanted_status, "HTTP %d", status);
    snprintf(wanted_host, sizeof wanted_host, "127.0.0.2:%d", port);
    CHECK(message && strstr(message, wanted_status) && strstr(message, wanted_host));
    if (!(message && strstr(message, wanted_status) && strstr(message, wanted_host)))
        fprintf(stderr, "  message: %s (wanted '%s' and '%s')\n", message ? message : "(none)", wanted_status, wanted_host);
    msal_na_string_free(message);
    msal_na_result_free(result);
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    emulator_base(argv[1], base, sizeof base);
    snprintf(config, sizeof config, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"memory\"}", argv[2], argv[1]);
    int port = start_listener();
    CHECK(port != 0);
    pthread_t recorder;
    pthread_create(&recorder, NULL, record, NULL);

    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(config, &app), MSAL_NA_OK);
    const int statuses[] = {301, 302, 303, 307, 308};
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
        msal_na_result *result = NULL;
        redirect_next("/oauth2/v2.0/initiate", statuses[i], port);
        CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_ERR_NETWORK);
        expect_refused(result, statuses[i], port);

        redirect_next("/oauth2/v2.0/token", statuses[i], port);
        CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_ERR_NETWORK);
        expect_refused(result, statuses[i], port);

        redirect_next("/authorize-challenge", statuses[i], port);
        CHECK_CODE(msal_na_sign_in_v2_wait(app, "ada@example.com", NULL, &result), MSAL_NA_ERR_NETWORK);
        expect_refused(result, statuses[i], port);
    }
    msal_na_app_free(app);

    shutdown(listener, SHUT_RDWR);
    close(listener);
    pthread_join(recorder, NULL);
    pthread_mutex_lock(&reached_lock);
    if (reached != 0) fprintf(stderr, "  %d connection(s) reached 127.0.0.2\n", reached);
    CHECK(reached == 0);
    pthread_mutex_unlock(&reached_lock);
    return report("redirect test");
}
