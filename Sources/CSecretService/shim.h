// Small helpers over libsecret (and GLib) for Swift: string hash tables, the schema's attribute
// types, and a fresh read of a collection's `Locked` property. Each hides a macro or a variadic call.
#ifndef MSAL_SECRET_SERVICE_SHIM_H
#define MSAL_SECRET_SERVICE_SHIM_H

#include <libsecret/secret.h>

/// A GHashTable of strings to strings that owns copies of both (attributes of an item).
static inline GHashTable *msal_string_table_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static inline void msal_string_table_insert(GHashTable *table, const char *key, const char *value) {
    g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}

/// A schema whose attributes are all strings, with flags NONE (so libsecret adds and matches
/// `xdg:schema`), as msal-extensions' `LibSecretAgent` builds it.
static inline SecretSchema *msal_string_schema_new(const char *name, const char *const *attributes, int count) {
    GHashTable *types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (int index = 0; index < count; index++) {
        g_hash_table_insert(types, g_strdup(attributes[index]), GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING));
    }
    SecretSchema *schema = secret_schema_newv(name, SECRET_SCHEMA_NONE, types);
    g_hash_table_unref(types);
    return schema;
}

/// The `Locked` property of the collection at `path`, asked of the service now (libsecret's
/// proxies cache properties, and nothing runs a main loop to update them): 1 locked, 0 unlocked,
/// -1 with `*error` set.
static inline int msal_collection_locked(SecretService *service, const char *path, GError **error) {
    GDBusConnection *connection = g_dbus_proxy_get_connection(G_DBUS_PROXY(service));
    GVariant *reply = g_dbus_connection_call_sync(
        connection, "org.freedesktop.secrets", path, "org.freedesktop.DBus.Properties", "Get",
        g_variant_new("(ss)", "org.freedesktop.Secret.Collection", "Locked"), G_VARIANT_TYPE("(v)"),
        G_DBUS_CALL_FLAGS_NONE, 10000, NULL, error);
    if (reply == NULL) return -1;
    GVariant *boxed = NULL;
    g_variant_get(reply, "(v)", &boxed);
    int locked = g_variant_get_boolean(boxed) ? 1 : 0;
    g_variant_unref(boxed);
    g_variant_unref(reply);
    return locked;
}

/// The D-Bus object path of a collection (a proxy).
static inline const char *msal_collection_path(SecretCollection *collection) {
    return g_dbus_proxy_get_object_path(G_DBUS_PROXY(collection));
}

/// Locks (`lock` 1) or unlocks (0, which may show the desktop's prompt) one collection; returns
/// how many objects changed state, or -1 with `*error` set.
static inline int msal_collection_set_locked(SecretService *service, SecretCollection *collection, int lock, GError **error) {
    GList *objects = g_list_append(NULL, collection);
    GList *changed = NULL;
    gint count = lock ? secret_service_lock_sync(service, objects, NULL, &changed, error)
                      : secret_service_unlock_sync(service, objects, NULL, &changed, error);
    g_list_free(objects);
    g_list_free_full(changed, g_object_unref);
    return error && *error ? -1 : count;
}

static inline void msal_object_unref(void *object) { g_object_unref(object); }

#endif
