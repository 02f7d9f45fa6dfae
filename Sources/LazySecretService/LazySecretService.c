// libsecret and GLib on first use, for an executable that links the keyring token store
// (Sources/MSALSecretService) but most often runs without it (`native-auth token` with a file
// cache): the libsecret, GIO, GObject and GLib functions MSALSecretService and its C helpers
// (Sources/CSecretService/shim.h) call, forwarders that load libsecret-1.so.0 at the first call of
// any of them (Sources/LazyLoading/include/LazyLoading.h).
//
// Linked with Package.swift's lazyLinkerSettings, these definitions satisfy every reference to
// those libraries, so libsecret, GIO, GObject, GLib and what they need (libgcrypt, libffi, libpcre2,
// libmount…) are no longer loaded and relocated when the process starts (docs/cli.md#the-keyring).
// libsecret's own calls into GLib are its own business: the real functions come from the libraries
// libsecret-1.so.0 brings with it, which is where each forwarder looks its function up.
//
// A libsecret-1.so.0 that cannot be loaded ends the process at the first keyring call by the rule
// of Sources/LazyLoading/LazyLoading.c (native-auth: status 3). Every forwarder is typed by the
// real prototype (the libsecret and GLib headers are included).

#include "LazySecretService.h"

#include <stdarg.h>

#include "LazyLoading.h"

// Hidden: the forwarders serve this executable's own calls only. Exported, they would also take
// the calls libsecret, GIO and GObject make into GLib once loaded (the executable comes first in
// the global scope), among them calls from their constructors while dlopen is still loading them.
#pragma GCC visibility push(hidden)
#include <libsecret/secret.h>

LAZY_LIBRARY(libsecret, "libsecret-1.so.0", "libsecret for the keyring", "libsecret-1-0")

// ---- libsecret ------------------------------------------------------------------------------------
LAZY_FORWARD(libsecret, SecretService *, secret_service_get_sync, (SecretServiceFlags flags, GCancellable *cancellable, GError **error),
             (flags, cancellable, error))
LAZY_FORWARD(libsecret, SecretCollection *, secret_collection_for_alias_sync,
             (SecretService * service, const gchar *alias, SecretCollectionFlags flags, GCancellable *cancellable, GError **error),
             (service, alias, flags, cancellable, error))
LAZY_FORWARD(libsecret, SecretSchema *, secret_schema_newv,
             (const gchar *name, SecretSchemaFlags flags, GHashTable *attribute_names_and_types),
             (name, flags, attribute_names_and_types))
LAZY_FORWARD_VOID(libsecret, secret_schema_unref, (SecretSchema * schema), (schema))
LAZY_FORWARD(libsecret, gboolean, secret_service_clear_sync,
             (SecretService * service, const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, GError **error),
             (service, schema, attributes, cancellable, error))
LAZY_FORWARD(libsecret, SecretValue *, secret_service_lookup_sync,
             (SecretService * service, const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, GError **error),
             (service, schema, attributes, cancellable, error))
LAZY_FORWARD(libsecret, gboolean, secret_service_store_sync,
             (SecretService * service, const SecretSchema *schema, GHashTable *attributes, const gchar *collection,
              const gchar *label, SecretValue *value, GCancellable *cancellable, GError **error),
             (service, schema, attributes, collection, label, value, cancellable, error))
LAZY_FORWARD(libsecret, gint, secret_service_lock_sync,
             (SecretService * service, GList *objects, GCancellable *cancellable, GList **locked, GError **error),
             (service, objects, cancellable, locked, error))
LAZY_FORWARD(libsecret, gint, secret_service_unlock_sync,
             (SecretService * service, GList *objects, GCancellable *cancellable, GList **unlocked, GError **error),
             (service, objects, cancellable, unlocked, error))
LAZY_FORWARD(libsecret, const gchar *, secret_value_get, (SecretValue * value, gsize *length), (value, length))
LAZY_FORWARD(libsecret, SecretValue *, secret_value_new, (const gchar *secret, gssize length, const gchar *content_type),
             (secret, length, content_type))
LAZY_FORWARD_VOID(libsecret, secret_value_unref, (gpointer value), (value))

// ---- GIO ------------------------------------------------------------------------------------------
LAZY_FORWARD(libsecret, GVariant *, g_dbus_connection_call_sync,
             (GDBusConnection * connection, const gchar *bus_name, const gchar *object_path, const gchar *interface_name,
              const gchar *method_name, GVariant *parameters, const GVariantType *reply_type, GDBusCallFlags flags,
              gint timeout_msec, GCancellable *cancellable, GError **error),
             (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags, timeout_msec,
              cancellable, error))
LAZY_FORWARD(libsecret, GDBusConnection *, g_dbus_proxy_get_connection, (GDBusProxy * proxy), (proxy))
LAZY_FORWARD(libsecret, const gchar *, g_dbus_proxy_get_object_path, (GDBusProxy * proxy), (proxy))
LAZY_FORWARD(libsecret, GType, g_dbus_proxy_get_type, (void), ())

// ---- GObject --------------------------------------------------------------------------------------
LAZY_FORWARD_VOID(libsecret, g_object_unref, (gpointer object), (object))
LAZY_FORWARD(libsecret, GTypeInstance *, g_type_check_instance_cast, (GTypeInstance * instance, GType iface_type),
             (instance, iface_type))

// ---- GLib -----------------------------------------------------------------------------------------
LAZY_FORWARD_VOID(libsecret, g_error_free, (GError * error), (error))
LAZY_FORWARD_VOID(libsecret, g_free, (gpointer mem), (mem))
LAZY_FORWARD(libsecret, gchar *, g_strdup, (const gchar *str), (str))
LAZY_FORWARD(libsecret, guint, g_str_hash, (gconstpointer v), (v))
LAZY_FORWARD(libsecret, gboolean, g_str_equal, (gconstpointer v1, gconstpointer v2), (v1, v2))
LAZY_FORWARD(libsecret, const gchar *, g_quark_to_string, (GQuark quark), (quark))
LAZY_FORWARD(libsecret, GHashTable *, g_hash_table_new_full,
             (GHashFunc hash_func, GEqualFunc key_equal_func, GDestroyNotify key_destroy_func, GDestroyNotify value_destroy_func),
             (hash_func, key_equal_func, key_destroy_func, value_destroy_func))
LAZY_FORWARD(libsecret, gboolean, g_hash_table_insert, (GHashTable * hash_table, gpointer key, gpointer value),
             (hash_table, key, value))
LAZY_FORWARD_VOID(libsecret, g_hash_table_unref, (GHashTable * hash_table), (hash_table))
LAZY_FORWARD(libsecret, GList *, g_list_append, (GList * list, gpointer data), (list, data))
LAZY_FORWARD_VOID(libsecret, g_list_free, (GList * list), (list))
LAZY_FORWARD_VOID(libsecret, g_list_free_full, (GList * list, GDestroyNotify free_func), (list, free_func))
LAZY_FORWARD(libsecret, const GVariantType *, g_variant_type_checked_, (const gchar * type_string), (type_string))
LAZY_FORWARD(libsecret, gboolean, g_variant_get_boolean, (GVariant * value), (value))
LAZY_FORWARD_VOID(libsecret, g_variant_unref, (GVariant * value), (value))

// The variadic two, passed on through their va_list forms (same format strings, same arguments).
LAZY_SLOT(g_variant_new_va)
LAZY_SLOT(g_variant_get_va)

GVariant *(g_variant_new)(const gchar *format_string, ...) {
    va_list arguments;
    va_start(arguments, format_string);
    GVariant *value = LAZY_REAL(libsecret, g_variant_new_va)(format_string, NULL, &arguments);
    va_end(arguments);
    return value;
}

void(g_variant_get)(GVariant *value, const gchar *format_string, ...) {
    va_list arguments;
    va_start(arguments, format_string);
    LAZY_REAL(libsecret, g_variant_get_va)(value, format_string, NULL, &arguments);
    va_end(arguments);
}

#pragma GCC visibility pop
