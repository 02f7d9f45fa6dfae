// libsecret and GLib on first use, for an executable that links the keyring token store
// (Sources/MSALSecretService) but most often runs without it (`native-auth token` with a file
// cache): the libsecret, GIO, GObject and GLib functions MSALSecretService and its C helpers
// (Sources/CSecretService/shim.h) call, each loading libsecret-1.so.0 with dlopen at the first
// call of any of them and then passing every call on unchanged.
//
// Linked with the linker wrapper in linker/ (Package.swift's lazySecretServiceLinkerSettings), these
// definitions satisfy every reference to those libraries, so libsecret, GIO, GObject, GLib and
// what they need (libgcrypt, libffi, libpcre2, libmount…) are no longer loaded and relocated when
// the process starts (docs/cli.md#the-keyring). libsecret's own calls into GLib are its own
// business: the real functions come from the libraries libsecret-1.so.0 brings with it.
//
// A libsecret-1.so.0 that cannot be loaded ends the process at the first keyring call with a
// message on standard error naming the package to install, and exit status 3 (the tool's status
// for a missing part of its setup, docs/cli.md#exit-codes), as the dynamic loader would have
// ended it at start.
//
// Every forwarder is typed by the real prototype (the libsecret and GLib headers are included), so
// a signature that drifts from the headers is a compile error, not a wrong call.

#define _GNU_SOURCE
#include "LazySecretService.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// Hidden: the forwarders serve this executable's own calls only. Exported, they would also take
// the calls libsecret, GIO and GObject make into GLib once loaded (the executable comes first in
// the global scope), among them calls from their constructors while dlopen is still loading them.
#pragma GCC visibility push(hidden)
#include <libsecret/secret.h>

static void *library;
static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // What a user can act on, rather than an abort and a core file.
        fprintf(stderr,
                "%s: cannot load libsecret-1.so.0 (%s); install libsecret for the keyring: on Debian and Ubuntu, apt install "
                "libsecret-1-0\n",
                program_invocation_short_name, dlerror());
        _exit(3);
    }
}

// The real function's address, looked up in libsecret and the libraries it needs at the first
// call and kept in `slot`.
static void *resolveOnce(_Atomic(void *) *slot, const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function == NULL) {
        pthread_once(&loadOnce, load);
        function = dlsym(library, name);
        if (function == NULL) {
            fprintf(stderr, "LazySecretService: libsecret-1.so.0 and its libraries have no %s\n", name);
            abort();
        }
        atomic_store_explicit(slot, function, memory_order_release);
    }
    return function;
}

// The real function, typed by its prototype in the headers. The name is in parentheses so that
// a header that also defines it as a macro (as newer GLib does for g_strdup and g_str_equal)
// does not expand it.
#define REAL(name) ((__typeof__(&(name)))resolveOnce(&real_##name, #name))

// One forwarder: `parameters` as the header declares them (a mismatch does not compile),
// `arguments` the same names.
#define FORWARD(result, name, parameters, arguments)                                                                        \
    static _Atomic(void *) real_##name;                                                                                     \
    result(name) parameters { return REAL(name) arguments; }

#define FORWARD_VOID(name, parameters, arguments)                                                                           \
    static _Atomic(void *) real_##name;                                                                                     \
    void(name) parameters { REAL(name) arguments; }

// ---- libsecret ------------------------------------------------------------------------------------
FORWARD(SecretService *, secret_service_get_sync, (SecretServiceFlags flags, GCancellable *cancellable, GError **error),
        (flags, cancellable, error))
FORWARD(SecretCollection *, secret_collection_for_alias_sync,
        (SecretService * service, const gchar *alias, SecretCollectionFlags flags, GCancellable *cancellable, GError **error),
        (service, alias, flags, cancellable, error))
FORWARD(SecretSchema *, secret_schema_newv, (const gchar *name, SecretSchemaFlags flags, GHashTable *attribute_names_and_types),
        (name, flags, attribute_names_and_types))
FORWARD_VOID(secret_schema_unref, (SecretSchema * schema), (schema))
FORWARD(gboolean, secret_service_clear_sync,
        (SecretService * service, const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, GError **error),
        (service, schema, attributes, cancellable, error))
FORWARD(SecretValue *, secret_service_lookup_sync,
        (SecretService * service, const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, GError **error),
        (service, schema, attributes, cancellable, error))
FORWARD(gboolean, secret_service_store_sync,
        (SecretService * service, const SecretSchema *schema, GHashTable *attributes, const gchar *collection, const gchar *label,
         SecretValue *value, GCancellable *cancellable, GError **error),
        (service, schema, attributes, collection, label, value, cancellable, error))
FORWARD(gint, secret_service_lock_sync,
        (SecretService * service, GList *objects, GCancellable *cancellable, GList **locked, GError **error),
        (service, objects, cancellable, locked, error))
FORWARD(gint, secret_service_unlock_sync,
        (SecretService * service, GList *objects, GCancellable *cancellable, GList **unlocked, GError **error),
        (service, objects, cancellable, unlocked, error))
FORWARD(const gchar *, secret_value_get, (SecretValue * value, gsize *length), (value, length))
FORWARD(SecretValue *, secret_value_new, (const gchar *secret, gssize length, const gchar *content_type),
        (secret, length, content_type))
FORWARD_VOID(secret_value_unref, (gpointer value), (value))

// ---- GIO ------------------------------------------------------------------------------------------
FORWARD(GVariant *, g_dbus_connection_call_sync,
        (GDBusConnection * connection, const gchar *bus_name, const gchar *object_path, const gchar *interface_name,
         const gchar *method_name, GVariant *parameters, const GVariantType *reply_type, GDBusCallFlags flags, gint timeout_msec,
         GCancellable *cancellable, GError **error),
        (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags, timeout_msec, cancellable,
         error))
FORWARD(GDBusConnection *, g_dbus_proxy_get_connection, (GDBusProxy * proxy), (proxy))
FORWARD(const gchar *, g_dbus_proxy_get_object_path, (GDBusProxy * proxy), (proxy))
FORWARD(GType, g_dbus_proxy_get_type, (void), ())

// ---- GObject --------------------------------------------------------------------------------------
FORWARD_VOID(g_object_unref, (gpointer object), (object))
FORWARD(GTypeInstance *, g_type_check_instance_cast, (GTypeInstance * instance, GType iface_type), (instance, iface_type))

// ---- GLib -----------------------------------------------------------------------------------------
FORWARD_VOID(g_error_free, (GError * error), (error))
FORWARD_VOID(g_free, (gpointer mem), (mem))
FORWARD(gchar *, g_strdup, (const gchar *str), (str))
FORWARD(guint, g_str_hash, (gconstpointer v), (v))
FORWARD(gboolean, g_str_equal, (gconstpointer v1, gconstpointer v2), (v1, v2))
FORWARD(const gchar *, g_quark_to_string, (GQuark quark), (quark))
FORWARD(GHashTable *, g_hash_table_new_full,
        (GHashFunc hash_func, GEqualFunc key_equal_func, GDestroyNotify key_destroy_func, GDestroyNotify value_destroy_func),
        (hash_func, key_equal_func, key_destroy_func, value_destroy_func))
FORWARD(gboolean, g_hash_table_insert, (GHashTable * hash_table, gpointer key, gpointer value), (hash_table, key, value))
FORWARD_VOID(g_hash_table_unref, (GHashTable * hash_table), (hash_table))
FORWARD(GList *, g_list_append, (GList * list, gpointer data), (list, data))
FORWARD_VOID(g_list_free, (GList * list), (list))
FORWARD_VOID(g_list_free_full, (GList * list, GDestroyNotify free_func), (list, free_func))
FORWARD(const GVariantType *, g_variant_type_checked_, (const gchar * type_string), (type_string))
FORWARD(gboolean, g_variant_get_boolean, (GVariant * value), (value))
FORWARD_VOID(g_variant_unref, (GVariant * value), (value))

// The variadic two, passed on through their va_list forms (same format strings, same arguments).
static _Atomic(void *) real_g_variant_new_va;
static _Atomic(void *) real_g_variant_get_va;

GVariant *(g_variant_new)(const gchar *format_string, ...) {
    va_list arguments;
    va_start(arguments, format_string);
    GVariant *value = REAL(g_variant_new_va)(format_string, NULL, &arguments);
    va_end(arguments);
    return value;
}

void(g_variant_get)(GVariant *value, const gchar *format_string, ...) {
    va_list arguments;
    va_start(arguments, format_string);
    REAL(g_variant_get_va)(value, format_string, NULL, &arguments);
    va_end(arguments);
}

#pragma GCC visibility pop
