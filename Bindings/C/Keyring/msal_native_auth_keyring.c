/*
 * libmsalnativeauth-keyring.so: the token cache document as one secret in the desktop keyring
 * (Secret Service, through libsecret), for libmsalnativeauth.so, which opens this library with
 * dlopen only when an application asks for "cache": "keyring" (Bindings/C/Sources/KeyringPersistence.swift).
 * libmsalnativeauth.so never links libsecret, so it works on machines without it.
 *
 * Not a public interface: the functions below are the contract between the two libraries (ABI
 * version 1). The item is the one of the MSALSecretService product (Sources/MSALSecretService/
 * SecretServiceClient.swift, whose steps this file follows) and of msal-extensions'
 * LibsecretPersistence: a schema of string attributes with flags NONE (libsecret adds xdg:schema),
 * the document stored as text/plain in the default collection. The GLib helpers are that
 * product's own (Sources/CSecretService/shim.h).
 *
 * Every function returns 0 on success, else a status (1 no Secret Service or no keyring, 2 locked,
 * 3 invalid configuration, 4 an operation failed) and, when `message` is not NULL, a malloc'd
 * sentence in *message (never the secret), freed with msal_na_keyring_free.
 */
#include <shim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

enum { OK = 0, UNAVAILABLE = 1, LOCKED = 2, INVALID = 3, FAILED = 4 };

static int fail(char **message, int status, const char *action, const char *detail) {
    if (message) {
        size_t size = strlen(action) + (detail ? strlen(detail) : 0) + 16;
        *message = malloc(size);
        if (*message) snprintf(*message, size, "Cannot %s%s%s", action, detail ? ": " : "", detail ? detail : "");
    }
    return status;
}

/* A GError as a status and message (freed here): a D-Bus failure to reach the service is
 * "unavailable" whatever the call; libsecret's "locked collection" is "locked". */
static int consume(GError *error, int status, const char *action, char **message) {
    if (!error) return fail(message, status, action, NULL);
    if (error->domain == G_DBUS_ERROR &&
        (error->code == G_DBUS_ERROR_SERVICE_UNKNOWN || error->code == G_DBUS_ERROR_NAME_HAS_NO_OWNER ||
         error->code == G_DBUS_ERROR_NO_SERVER || error->code == G_DBUS_ERROR_DISCONNECTED))
        status = UNAVAILABLE;
    if (error->message && strstr(error->message, "locked collection")) status = LOCKED;
    int result = fail(message, status, action, error->message);
    g_error_free(error);
    return result;
}

/* The item's schema and attributes. */
struct item {
    SecretSchema *schema;
    GHashTable *table;
};

static int item_open(struct item *item, const char *schema, size_t count, const char *const *names, const char *const *values,
                     const char *extra_name, const char *extra_value, char **message) {
    if (!schema || !*schema || (count && (!names || !values))) return fail(message, INVALID, "use the keyring", "no schema name");
    const char **all = calloc(count + 1, sizeof *all);
    if (!all) return fail(message, FAILED, "use the keyring", "out of memory");
    item->table = msal_string_table_new();
    for (size_t index = 0; index < count; index++) {
        if (!names[index] || !*names[index] || !values[index] || strcmp(names[index], "xdg:schema") == 0) {
            free(all);
            g_hash_table_unref(item->table);
            return fail(message, INVALID, "use the keyring", "an attribute is empty or xdg:schema");
        }
        all[index] = names[index];
        msal_string_table_insert(item->table, names[index], values[index]);
    }
    size_t used = count;
    if (extra_name) {
        all[used++] = extra_name;
        msal_string_table_insert(item->table, extra_name, extra_value);
    }
    item->schema = msal_string_schema_new(schema, all, (int)used);
    free(all);
    if (!item->schema) {
        g_hash_table_unref(item->table);
        return fail(message, INVALID, "use the keyring", "libsecret refused the schema name");
    }
    return OK;
}

static void item_close(struct item *item) {
    secret_schema_unref(item->schema);
    g_hash_table_unref(item->table);
}

static int open_service(SecretService **service, char **message) {
    GError *error = NULL;
    *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &error);
    if (!*service) return consume(error, UNAVAILABLE, "reach the Secret Service (is a desktop session with a keyring running?)", message);
    return OK;
}

/* Unlocks the default keyring when it is locked (the desktop's prompt); *unlocked tells whether it
 * was locked and is now open. `required`: a missing keyring is an error. */
static int unlock_default(SecretService *service, int required, int *unlocked, char **message) {
    GError *error = NULL;
    *unlocked = 0;
    SecretCollection *collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, NULL, &error);
    if (!collection) {
        if (error) return consume(error, FAILED, "find the default keyring", message);
        return required ? fail(message, UNAVAILABLE, "use the keyring", "the Secret Service has no default keyring") : OK;
    }
    const char *path = msal_collection_path(collection);
    int status = OK;
    int locked = msal_collection_locked(service, path, &error);
    if (locked < 0) {
        status = consume(error, FAILED, "ask whether the keyring is locked", message);
    } else if (locked == 1) {
        msal_collection_set_locked(service, collection, 0, &error);
        if (error) {
            status = consume(error, LOCKED, "unlock the keyring", message);
        } else if (msal_collection_locked(service, path, &error) != 0) {
            if (error) g_error_free(error);
            status = fail(message, LOCKED, "use the keyring", "it is locked and was not unlocked (declined, or no prompt could be shown)");
        } else {
            *unlocked = 1;
        }
    }
    msal_object_unref(collection);
    return status;
}

static int lookup(SecretService *service, struct item *item, unsigned char **data, size_t *length, int *found, char **message) {
    GError *error = NULL;
    SecretValue *value = secret_service_lookup_sync(service, item->schema, item->table, NULL, &error);
    *found = 0;
    if (!value) return error ? consume(error, FAILED, "read the token cache item", message) : OK;
    gsize size = 0;
    const gchar *bytes = secret_value_get(value, &size);
    *data = malloc(size ? size : 1);
    if (!*data) {
        secret_value_unref(value);
        return fail(message, FAILED, "read the token cache item", "out of memory");
    }
    if (size) memcpy(*data, bytes, size);
    *length = size;
    *found = 1;
    secret_value_unref(value);
    return OK;
}

static int store(SecretService *service, struct item *item, const char *label, const unsigned char *data, size_t length,
                 const char *type, char **message) {
    GError *error = NULL;
    static const unsigned char empty = 0;
    SecretValue *value = secret_value_new((const gchar *)(length ? data : &empty), (gssize)length, type);
    gboolean stored = secret_service_store_sync(service, item->schema, item->table, NULL, label, value, NULL, &error);
    secret_value_unref(value);
    return stored ? OK : consume(error, FAILED, "store the token cache item", message);
}

EXPORT int msal_na_keyring_abi(void) { return 1; }

EXPORT void msal_na_keyring_free(void *pointer) { free(pointer); }

/* Succeeds when the service answers and the default keyring exists and is (or gets) unlocked. */
EXPORT int msal_na_keyring_check(const char *schema, size_t count, const char *const *names, const char *const *values,
                                 char **message) {
    struct item item;
    int status = item_open(&item, schema, count, names, values, NULL, NULL, message);
    if (status) return status;
    SecretService *service = NULL;
    int unlocked = 0, found = 0;
    unsigned char *data = NULL;
    size_t length = 0;
    if (!(status = open_service(&service, message)) && !(status = unlock_default(service, 1, &unlocked, message)))
        status = lookup(service, &item, &data, &length, &found, message);
    free(data);
    if (service) msal_object_unref(service);
    item_close(&item);
    return status;
}

/* The stored bytes (*found 1; *data malloc'd, freed with msal_na_keyring_free), or *found 0. A
 * locked keyring is unlocked first: one that stays locked is an error, not "nothing stored". */
EXPORT int msal_na_keyring_load(const char *schema, size_t count, const char *const *names, const char *const *values,
                                unsigned char **data, size_t *length, int *found, char **message) {
    if (!data || !length || !found) return fail(message, INVALID, "read the keyring", "no place for the result");
    *data = NULL;
    *length = 0;
    struct item item;
    int status = item_open(&item, schema, count, names, values, NULL, NULL, message);
    if (status) return status;
    SecretService *service = NULL;
    int unlocked = 0;
    if (!(status = open_service(&service, message)) && !(status = lookup(service, &item, data, length, found, message)) && !*found &&
        !(status = unlock_default(service, 0, &unlocked, message)) && unlocked)
        status = lookup(service, &item, data, length, found, message); /* lookups skip locked collections */
    if (service) msal_object_unref(service);
    item_close(&item);
    return status;
}

/* Replaces the item's secret with `data`, as text (msal-extensions stores it so). */
EXPORT int msal_na_keyring_save(const char *schema, size_t count, const char *const *names, const char *const *values,
                                const char *label, const unsigned char *data, size_t length, char **message) {
    struct item item;
    int status = item_open(&item, schema, count, names, values, NULL, NULL, message);
    if (status) return status;
    SecretService *service = NULL;
    int unlocked = 0;
    if (!(status = open_service(&service, message)) && !(status = unlock_default(service, 1, &unlocked, message)))
        status = store(service, &item, label ? label : "MSAL token cache", data, length, "text/plain", message);
    if (service) msal_object_unref(service);
    item_close(&item);
    return status;
}

/* Keeps an unusable document under "<schema>.corrupt" with msal_set_aside=<time>, then removes the
 * item; *where (malloc'd) says where it went. */
EXPORT int msal_na_keyring_set_aside(const char *schema, size_t count, const char *const *names, const char *const *values,
                                     const char *label, const unsigned char *data, size_t length, char **where, char **message) {
    char stamp[32], corrupt[512], kept_label[512];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (!schema || snprintf(corrupt, sizeof corrupt, "%s.corrupt", schema) >= (int)sizeof corrupt)
        return fail(message, INVALID, "set the token cache item aside", "the schema name is too long");
    snprintf(kept_label, sizeof kept_label, "%s (unusable, set aside %s)", label ? label : "MSAL token cache", stamp);
    struct item item, kept;
    int status = item_open(&item, schema, count, names, values, NULL, NULL, message);
    if (status) return status;
    if ((status = item_open(&kept, corrupt, count, names, values, "msal_set_aside", stamp, message))) {
        item_close(&item);
        return status;
    }
    SecretService *service = NULL;
    int unlocked = 0;
    GError *error = NULL;
    if (!(status = open_service(&service, message)) && !(status = unlock_default(service, 1, &unlocked, message)) &&
        !(status = store(service, &kept, kept_label, data, length, "application/octet-stream", message))) {
        secret_service_clear_sync(service, item.schema, item.table, NULL, &error);
        if (error) status = consume(error, FAILED, "remove the token cache item", message);
    }
    if (!status && where) {
        size_t size = strlen(corrupt) + strlen(stamp) + 80;
        *where = malloc(size);
        if (*where) snprintf(*where, size, "in the Secret Service under schema \"%s\" with msal_set_aside=%s", corrupt, stamp);
    }
    if (service) msal_object_unref(service);
    item_close(&kept);
    item_close(&item);
    return status;
}
