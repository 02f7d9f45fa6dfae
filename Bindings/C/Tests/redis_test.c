/*
 * The token cache on Redis ("cache": "redis") at the C boundary, against the emulator and a
 * redis-server this test starts (with a password, on a free loopback port and a unix socket, in a
 * temporary directory) and stops: two application objects on one Redis share a signed-in account's
 * tokens and see a sign-out by the other; key prefixes keep apps apart; an encryption key keeps the
 * values unreadable in Redis; a saved sign-in put in Redis by one application is taken once by
 * another, and refused after (MSAL_NA_ERR_STATE_NOT_FOUND), also to threads taking it at once;
 * bad settings are MSAL_NA_ERR_INVALID_CONFIG naming the field; a wrong
 * password and a server that is down are MSAL_NA_ERR_REDIS_UNAVAILABLE naming the server, and no
 * message ever holds a password; so is a server that never answers, within the command timeout. Built and run by scripts/test-bindings under AddressSanitizer and
 * UndefinedBehaviorSanitizer, then ThreadSanitizer.
 * Usage: redis_test AUTHORITY CLIENT_ID   (a running emulator; redis-server and redis-cli on PATH)
 */
#include <msal_native_auth.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define PASSWORD "redis-test-password-7f3a"
#define WRONG_PASSWORD "not-the-password-91c2"
#define TODOLIST "api://emulator/todolist/ToDoList.Read"

static char directory[200], authority[512], client_id[128];
static int port;
static pid_t server = -1;

/* A loopback port nothing listens on now (the kernel's choice). */
static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t size = sizeof address;
    bind(fd, (struct sockaddr *)&address, size);
    getsockname(fd, (struct sockaddr *)&address, &size);
    close(fd);
    return ntohs(address.sin_port);
}

static int accepts_connections(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int connected = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
    close(fd);
    return connected;
}

/* redis-server with a password, no snapshots, on `port` and directory/redis.sock; it dies with this
 * process (PR_SET_PDEATHSIG) whatever ends it. */
static void start_server(void) {
    char port_text[16], socket_path[300];
    snprintf(port_text, sizeof port_text, "%d", port);
    snprintf(socket_path, sizeof socket_path, "%s/redis.sock", directory);
    server = fork();
    if (server == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        execlp("redis-server", "redis-server", "--port", port_text, "--bind", "127.0.0.1", "--unixsocket", socket_path,
               "--unixsocketperm", "700", "--requirepass", PASSWORD, "--save", "", "--appendonly", "no", "--daemonize", "no",
               "--dir", directory, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 100 && !accepts_connections(); i++) usleep(100 * 1000);
    CHECK(accepts_connections());
}

static void stop_server(void) {
    if (server <= 0) return;
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);
    server = -1;
}

static void write_file(const char *name, const void *bytes, size_t size) {
    char path[300];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "wb");
    fwrite(bytes, 1, size, file);
    fclose(file);
    chmod(path, 0600);
}

/* A configuration: the emulator's app with "cache": "redis" and this `redis` object (its body). */
static char *config_with(const char *redis_body) {
    static char json[4096];
    snprintf(json, sizeof json,
             "{\"client_id\": \"%s\", \"authority\": \"%s\", \"allows_multiple_accounts\": true, \"cache\": \"redis\", "
             "\"redis\": {%s}}",
             client_id, authority, redis_body);
    return json;
}

/* The redis body for the TCP server with a password file, a key prefix and more (`extra`, may be ""). */
static char *redis_body(const char *password_file, const char *prefix, const char *extra) {
    static char body[2048];
    snprintf(body, sizeof body,
             "\"url\": \"redis://127.0.0.1:%d\", \"password_file\": \"%s/%s\", \"key_prefix\": \"%s\", "
             "\"check_interval_seconds\": 0%s",
             port, directory, password_file, prefix, extra);
    return body;
}

/* The last error message holds neither password. */
static int message_keeps_secrets(void) {
    char *message = msal_na_last_error_message();
    int clean = message && !strstr(message, PASSWORD) && !strstr(message, WRONG_PASSWORD);
    if (!clean) fprintf(stderr, "  a message holds a password: %s\n", message ? message : "(none)");
    msal_na_string_free(message);
    return clean;
}

static int create_code(const char *json) {
    msal_na_app *app = (msal_na_app *)0x1;
    int code = msal_na_app_create(json, &app);
    if (code != MSAL_NA_OK) CHECK(app == NULL);
    if (app) msal_na_app_free(app);
    return code;
}

static msal_na_app *app_of(const char *json) {
    msal_na_app *app = NULL;
    CHECK_CODE(msal_na_app_create(json, &app), MSAL_NA_OK);
    return app;
}

static char *token_of(msal_na_account *account) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_account_get_access_token_wait(account, TODOLIST, 0, &result), MSAL_NA_OK);
    char *token = msal_na_result_access_token(result);
    CHECK(token != NULL);
    msal_na_result_free(result);
    return token;
}

static msal_na_account *sign_in(msal_na_app *app) {
    msal_na_result *result = NULL;
    CHECK_CODE(msal_na_sign_in_wait(app, "ada@example.com", "Analytical-Engine-1843", NULL, &result), MSAL_NA_OK);
    CHECK(msal_na_result_outcome(result) == MSAL_NA_OUTCOME_SIGNED_IN);
    msal_na_account *account = msal_na_result_take_account(result);
    msal_na_result_free(result);
    return account;
}

/* Every value of every hash under `prefix` in Redis contains `text` (redis-cli, one Lua script). */
static int redis_values_contain(const char *prefix, const char *text) {
    char command[1024];
    snprintf(command, sizeof command,
             "redis-cli -p %d -a %s --no-auth-warning EVAL \"local out = {} for _, k in ipairs(redis.call('KEYS', ARGV[1])) do "
             "if redis.call('TYPE', k).ok == 'hash' then for _, v in ipairs(redis.call('HVALS', k)) do out[#out + 1] = v end end "
             "end return out\" 0 '%s*'",
             port, PASSWORD, prefix);
    FILE *pipe = popen(command, "r");
    char line[8192];
    int found = 0, lines = 0;
    while (pipe && fgets(line, sizeof line, pipe)) {
        lines++;
        found |= strstr(line, text) != NULL;
    }
    if (pipe) pclose(pipe);
    CHECK(lines > 0); /* the prefix holds entries */
    return found;
}

/* Two application objects on one Redis: one's sign-in and token are the other's; one's sign-out
 * is seen by the other at once. */
static void shared(void) {
    char json[4096];
    snprintf(json, sizeof json, "%s", config_with(redis_body("password", "shared:", "")));
    msal_na_app *first = app_of(json), *second = app_of(json);
    msal_na_account *none = NULL;
    CHECK_CODE(msal_na_app_current_account(second, &none), MSAL_NA_ERR_NO_ACCOUNT);
    msal_na_account *signed_in = sign_in(first);
    char *token = token_of(signed_in);

    msal_na_account *seen = NULL;
    CHECK_CODE(msal_na_app_current_account(second, &seen), MSAL_NA_OK);
    char *username = msal_na_account_username(seen);
    CHECK(username && strcmp(username, "ada@example.com") == 0);
    char *same = token_of(seen); /* from the shared cache: the very token the first one got */
    CHECK(token && same && strcmp(token, same) == 0);

    /* Another key prefix is another cache. */
    msal_na_app *elsewhere = app_of(config_with(redis_body("password", "elsewhere:", "")));
    CHECK_CODE(msal_na_app_current_account(elsewhere, &none), MSAL_NA_ERR_NO_ACCOUNT);
    msal_na_app_free(elsewhere);

    CHECK_CODE(msal_na_account_sign_out(signed_in), MSAL_NA_OK);
    CHECK_CODE(msal_na_app_current_account(second, &none), MSAL_NA_ERR_NO_ACCOUNT);
    CHECK(none == NULL);
    msal_na_string_free(username);
    msal_na_string_free(token);
    msal_na_string_free(same);
    msal_na_account_free(seen);
    msal_na_account_free(signed_in);
    msal_na_app_free(second);
    msal_na_app_free(first);
}

/* With an encryption key the values in Redis are sealed: the account record's username, plain
 * under another prefix, is not there; an app with the same key reads them. */
static void encrypted(void) {
    unsigned char key[32];
    for (int i = 0; i < 32; i++) key[i] = (unsigned char)(i * 7 + 3);
    write_file("redis.key", key, sizeof key);
    char extra[400];
    snprintf(extra, sizeof extra, ", \"encryption_key_file\": \"%s/redis.key\"", directory);
    char json[4096];
    snprintf(json, sizeof json, "%s", config_with(redis_body("password", "sealed:", extra)));
    msal_na_app *sealed = app_of(json), *plain = app_of(config_with(redis_body("password", "plain:", "")));
    msal_na_account *one = sign_in(sealed), *two = sign_in(plain);
    CHECK(!redis_values_contain("sealed:", "ada@example.com"));
    CHECK(redis_values_contain("plain:", "ada@example.com"));
    msal_na_app *again = app_of(json);
    msal_na_account *seen = NULL;
    CHECK_CODE(msal_na_app_current_account(again, &seen), MSAL_NA_OK);
    msal_na_account_sign_out(one);
    msal_na_account_sign_out(two);
    msal_na_account_free(seen);
    msal_na_account_free(one);
    msal_na_account_free(two);
    msal_na_app_free(again);
    msal_na_app_free(plain);
    msal_na_app_free(sealed);
}

/* Bad settings: MSAL_NA_ERR_INVALID_CONFIG naming the field, never echoing a password. */
static void bad_settings(void) {
    char json[2048];
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"redis\"}", client_id, authority);
    CHECK_CODE(create_code(json), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("needs a 'redis' object"));
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"redis\": {\"url\": \"redis://127.0.0.1\"}}",
             client_id, authority);
    CHECK_CODE(create_code(json), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("only with \"token_cache\": \"redis\""));
    CHECK_CODE(create_code(config_with("\"key_prefix\": \"x:\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("redis.url"));
    CHECK_CODE(create_code(config_with("\"url\": \"redis://127.0.0.1\", \"colour\": \"blue\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("unknown field 'redis.colour'"));
    CHECK_CODE(create_code(config_with("\"url\": \"http://127.0.0.1\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("redis.url"));
    CHECK_CODE(create_code(config_with("\"url\": \"redis://:" PASSWORD "@127.0.0.1\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("password_file") && message_keeps_secrets());
    CHECK_CODE(create_code(config_with("\"url\": \"redis://u:" PASSWORD "@\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_keeps_secrets());
    CHECK_CODE(create_code(config_with("\"url\": \"redis://127.0.0.1\", \"ca_file\": \"/etc/ssl/ca.pem\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("rediss://"));
    CHECK_CODE(create_code(config_with("\"url\": \"redis://127.0.0.1\", \"check_interval_seconds\": -1")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("check_interval_seconds"));
    CHECK_CODE(create_code(config_with("\"url\": \"redis://127.0.0.1\", \"password_file\": \"relative\"")), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("redis.password_file"));
    CHECK_CODE(create_code(config_with(redis_body("no-such-file", "x:", ""))), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("redis.password_file"));
    write_file("short.key", "0123456789", 10);
    char extra[400];
    snprintf(extra, sizeof extra, ", \"encryption_key_file\": \"%s/short.key\"", directory);
    CHECK_CODE(create_code(config_with(redis_body("password", "x:", extra))), MSAL_NA_ERR_INVALID_CONFIG);
    CHECK(message_has("32 bytes or 64 hex digits"));
    snprintf(json, sizeof json, "{\"client_id\": \"%s\", \"authority\": \"%s\", \"cache\": \"redis\", \"cache_file\": \"/tmp/c.json\", "
             "\"redis\": {\"url\": \"redis://127.0.0.1\"}}", client_id, authority);
    CHECK_CODE(create_code(json), MSAL_NA_ERR_INVALID_CONFIG);
}

/* A server that refuses the password, or is not there: MSAL_NA_ERR_REDIS_UNAVAILABLE naming it. */
static void unavailable(const char *when) {
    char place[64];
    snprintf(place, sizeof place, "127.0.0.1:%d", port);
    CHECK_CODE(create_code(config_with(redis_body("wrong-password", "x:", ""))), MSAL_NA_ERR_REDIS_UNAVAILABLE);
    CHECK(message_has(place) && message_keeps_secrets());
    if (strcmp(when, "up") == 0) CHECK(message_has("refused the credentials"));
    /* No password at all where one is needed. */
    char body[256];
    snprintf(body, sizeof body, "\"url\": \"redis://127.0.0.1:%d\"", port);
    CHECK_CODE(create_code(config_with(body)), MSAL_NA_ERR_REDIS_UNAVAILABLE);
    CHECK(message_has(place));
    if (strcmp(when, "down") == 0) {
        CHECK_CODE(create_code(config_with(redis_body("password", "x:", ""))), MSAL_NA_ERR_REDIS_UNAVAILABLE);
        CHECK(message_has(place) && message_has("cannot be reached") && message_keeps_secrets());
    }
}

/* A server that accepts connections (the kernel completes them in the listen backlog) and never
 * answers: creating the application (PING, after AUTH and SELECT) is MSAL_NA_ERR_REDIS_UNAVAILABLE
 * within the command timeout, 2 s as a whole, not the 5 s connect timeout. */
static void never_answers(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t size = sizeof address;
    CHECK(bind(listener, (struct sockaddr *)&address, size) == 0 && listen(listener, 8) == 0);
    getsockname(listener, (struct sockaddr *)&address, &size);
    char body[512];
    snprintf(body, sizeof body, "\"url\": \"redis://127.0.0.1:%d/2\", \"password_file\": \"%s/password\"", ntohs(address.sin_port),
             directory);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    CHECK_CODE(create_code(config_with(body)), MSAL_NA_ERR_REDIS_UNAVAILABLE);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double elapsed = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    if (!(elapsed >= 1.8 && elapsed < 3.6)) fprintf(stderr, "gave up after %.2f s, where the command timeout is 2 s\n", elapsed);
    CHECK(elapsed >= 1.8 && elapsed < 3.6);
    close(listener);
}

#include "redis_saved_sign_ins.h"

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s AUTHORITY CLIENT_ID\n", argv[0]), 2;
    snprintf(authority, sizeof authority, "%s", argv[1]);
    snprintf(client_id, sizeof client_id, "%s", argv[2]);
    snprintf(directory, sizeof directory, "%s/redis-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(directory)) return perror("mkdtemp"), 2;
    write_file("password", PASSWORD "\n", strlen(PASSWORD) + 1);
    write_file("wrong-password", WRONG_PASSWORD, strlen(WRONG_PASSWORD));
    port = free_port();
    start_server();
    /* The unix socket, with the same password. */
    char body[1024];
    snprintf(body, sizeof body, "\"url\": \"unix://%s/redis.sock\", \"password_file\": \"%s/password\"", directory, directory);
    CHECK_CODE(create_code(config_with(body)), MSAL_NA_OK);
    shared();
    encrypted();
    saved_sign_ins();
    bad_settings();
    unavailable("up");
    never_answers();
    late_app = app_of(config_with(redis_body("password", "late:", "")));
    late_state = password_step(late_app);
    stop_server();
    unavailable("down");
    save_when_down();
    char command[400];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    CHECK(system(command) == 0);
    return report("redis test");
}
