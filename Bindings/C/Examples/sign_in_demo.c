/*
 * The terminal demo's loop in C: sign in (password, email code, MFA), get a token for each API,
 * call it, sign out. Build against the library's prefix (scripts/build-bindings):
 *   cc sign_in_demo.c $(pkg-config --cflags --libs msalnativeauth) -lcurl -o sign_in_demo
 * Usage: sign_in_demo CONFIG.json USERNAME [API_URL "SCOPES"]... [--sign-out]
 * Answers (password, codes) are read from stdin, one per line; an empty password asks for a code.
 */
#include <curl/curl.h>
#include <msal_native_auth.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *ask(const char *prompt) {
    static char line[512];
    printf("%s: ", prompt);
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) return NULL;
    line[strcspn(line, "\r\n")] = 0;
    return line;
}

static void show(const char *label, char *text) { /* prints and frees a library string */
    printf("%s: %s\n", label, text ? text : "(none)");
    msal_na_string_free(text);
}

/* Drives one flow to its end; returns the signed-in account or NULL. Owns `result`. */
static msal_na_account *finish(msal_na_result *result) {
    for (;;) {
        int outcome = msal_na_result_outcome(result);
        msal_na_state *state = msal_na_result_take_state(result);
        msal_na_account *account = msal_na_result_take_account(result);
        msal_na_result *next = NULL;
        char *answer;
        if (outcome == MSAL_NA_OUTCOME_CODE_REQUIRED) {
            show("code sent to", msal_na_result_sent_to(result));
            if ((answer = ask("Code"))) msal_na_state_submit_code_wait(state, answer, &next);
        } else if (outcome == MSAL_NA_OUTCOME_PASSWORD_REQUIRED) {
            if ((answer = ask("Password"))) msal_na_state_submit_password_wait(state, answer, &next);
        } else if (outcome == MSAL_NA_OUTCOME_MFA_REQUIRED) {
            char *method = msal_na_result_auth_method(result, 0, MSAL_NA_AUTH_METHOD_ID);
            printf("second factor required\n");
            msal_na_state_request_challenge_wait(state, method, &next);
            msal_na_string_free(method);
        } else if (outcome == MSAL_NA_OUTCOME_ERROR) {
            printf("error %s\n", msal_na_error_name(msal_na_result_error(result)));
            show("message", msal_na_result_message(result));
            show("correlation id", msal_na_result_correlation_id(result));
        } else if (outcome != MSAL_NA_OUTCOME_SIGNED_IN) {
            printf("unexpected outcome %d\n", outcome);
        }
        msal_na_state_free(state); /* NULL is reported, not a crash */
        msal_na_result_free(result);
        if (!next) return account;
        result = next;
    }
}

static size_t print_body(char *data, size_t size, size_t count, void *unused) {
    (void)unused;
    return fwrite(data, size, count, stdout) * size;
}

static void call_api(msal_na_account *account, const char *url, const char *scopes) {
    msal_na_result *result = NULL;
    if (msal_na_account_get_access_token_wait(account, scopes, 0, &result) != MSAL_NA_OK) {
        printf("token for %s: %s\n", url, msal_na_error_name(msal_na_result_error(result)));
        show("message", msal_na_result_message(result));
    } else {
        char *token = msal_na_result_access_token(result);
        char header[8192];
        snprintf(header, sizeof header, "Authorization: Bearer %s", token);
        msal_na_string_free(token);
        CURL *curl = curl_easy_init();
        struct curl_slist *headers = curl_slist_append(NULL, header);
        long status = 0;
        curl_easy_setopt(curl, CURLOPT_URL, url);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, print_body);
        printf("GET %s\n", url);
        CURLcode code = curl_easy_perform(curl);
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        printf("\nHTTP %ld%s%s\n", status, code ? " " : "", code ? curl_easy_strerror(code) : "");
        curl_slist_free_all(headers);
        curl_easy_cleanup(curl);
    }
    msal_na_result_free(result);
}

int main(int argc, char **argv) {
    if (argc < 3) return fprintf(stderr, "usage: %s CONFIG.json USERNAME [API_URL SCOPES]... [--sign-out]\n", argv[0]), 2;
    int sign_out = strcmp(argv[argc - 1], "--sign-out") == 0;
    char config[16384] = {0};
    FILE *file = fopen(argv[1], "r");
    if (!file || fread(config, 1, sizeof config - 1, file) == 0) return fprintf(stderr, "cannot read %s\n", argv[1]), 2;
    fclose(file);
    msal_na_app *app = NULL;
    if (msal_na_app_create(config, &app) != MSAL_NA_OK) {
        show("configuration", msal_na_last_error_message());
        return 2;
    }
    msal_na_account *account = NULL;
    if (msal_na_app_current_account(app, &account) == MSAL_NA_OK) {
        show("account found in cache", msal_na_account_username(account));
    } else {
        char *password = ask("Password (empty: email code)");
        msal_na_result *result = NULL;
        msal_na_sign_in_wait(app, argv[2], password && *password ? password : NULL, NULL, &result);
        if (!(account = finish(result))) return msal_na_app_free(app), 1;
        show("signed in as", msal_na_account_username(account));
    }
    for (int i = 3; i + 1 < argc - sign_out; i += 2) call_api(account, argv[i], argv[i + 1]);
    if (sign_out) printf("sign-out: %s\n", msal_na_error_name(msal_na_account_sign_out(account)));
    msal_na_account_free(account);
    msal_na_app_free(app);
    printf("live handles %zu, live strings %zu\n", msal_na_live_handles(), msal_na_live_strings());
    return 0;
}
