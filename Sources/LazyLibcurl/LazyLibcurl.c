// libcurl on first use, for executables that often finish without a request (a command printing
// a cached token): the 23 libcurl functions FoundationNetworking calls, each loading libcurl.so.4
// with dlopen at the first call of any of them and then passing every call on unchanged.
//
// Linked into an executable built with `--static-swift-stdlib` and the linker script in link/
// (Package.swift's lazyLibcurlLinkerSettings), these definitions satisfy FoundationNetworking's
// references, so libcurl and the thirty libraries it needs (TLS, Kerberos, LDAP, SSH, IDN…) are no
// longer loaded and relocated when the process starts: 3 to 4 ms of a fresh process's CPU on the
// benchmark machine (BENCHMARKS.md, "A cached token from a fresh process"). In an ordinary build
// the shared libFoundationNetworking loads libcurl itself and calls it directly; these definitions
// are then neither exported nor called.
//
// A libcurl.so.4 that cannot be loaded ends the process at the first request with a message on
// standard error naming the package to install, and exit status 3, as the dynamic loader would
// have ended it at start (scripts/test-packages hides libcurl to check it).

#define _GNU_SOURCE
#include "LazyLibcurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// libcurl's types are opaque here (no libcurl headers needed to build): handles are pointers,
// codes, options and enumerations are ints, sockets are ints (curl_socket_t on Linux).
typedef void curl_handle;

// The variadic setopt/getinfo functions take exactly one more argument: a long, a pointer, a
// function pointer or a curl_off_t (long long). On the 64-bit Linux ABIs these all travel in one
// general-purpose register as a 64-bit value, which is passed on as such (libcurl reads it back
// with the type the option names).
_Static_assert(sizeof(long) == sizeof(void *) && sizeof(long long) == sizeof(void *), "needs a 64-bit ABI");

static void *library;
static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // What a user can act on, and the tool's status for a missing part of its setup
        // (ExitCode.configuration, docs/cli.md#exit-codes), rather than an abort and a core file.
        fprintf(stderr, "%s: cannot load libcurl.so.4 (%s); install libcurl: on Debian and Ubuntu, apt install libcurl4\n",
                program_invocation_short_name, dlerror());
        _exit(3);
    }
}

static void *resolve(const char *name) {
    pthread_once(&loadOnce, load);
    void *function = dlsym(library, name);
    if (function == NULL) {
        fprintf(stderr, "LazyLibcurl: libcurl.so.4 has no %s\n", name);
        abort();
    }
    return function;
}

// The real function's address, looked up at the first call and kept in `slot`.
static void *resolveOnce(_Atomic(void *) *slot, const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function == NULL) {
        function = resolve(name);
        atomic_store_explicit(slot, function, memory_order_release);
    }
    return function;
}

#define REAL(name, type) ((type)resolveOnce(&real_##name, #name))

// One forwarder: `parameters` as libcurl declares them, `arguments` the same names.
#define FORWARD(result, name, parameters, arguments)                                         \
    static _Atomic(void *) real_##name;                                                     \
    result name parameters { return REAL(name, result(*) parameters) arguments; }

#define FORWARD_VOID(name, parameters, arguments)                                            \
    static _Atomic(void *) real_##name;                                                     \
    void name parameters { REAL(name, void(*) parameters) arguments; }

// The variadic ones take exactly one more argument (see the assertion above), passed on as is.
#define FORWARD_VARIADIC(name, handle, option)                                               \
    static _Atomic(void *) real_##name;                                                     \
    int name(curl_handle *handle, int option, ...) {                                         \
        va_list more;                                                                        \
        va_start(more, option);                                                              \
        void *value = va_arg(more, void *);                                                  \
        va_end(more);                                                                        \
        return REAL(name, int (*)(curl_handle *, int, ...))(handle, option, value);          \
    }

// libcurl's names, argument order and (opaque) types.
curl_handle *curl_easy_init(void);
void curl_easy_cleanup(curl_handle *easy);
int curl_easy_pause(curl_handle *easy, int bitmask);
const char *curl_easy_strerror(int code);
int curl_easy_setopt(curl_handle *easy, int option, ...);
int curl_easy_getinfo(curl_handle *easy, int info, ...);
void curl_free(void *pointer);
int curl_global_init(long flags);
int curl_multi_add_handle(curl_handle *multi, curl_handle *easy);
int curl_multi_assign(curl_handle *multi, int socket, void *pointer);
int curl_multi_cleanup(curl_handle *multi);
void *curl_multi_info_read(curl_handle *multi, int *queued);
curl_handle *curl_multi_init(void);
int curl_multi_remove_handle(curl_handle *multi, curl_handle *easy);
int curl_multi_setopt(curl_handle *multi, int option, ...);
int curl_multi_socket_action(curl_handle *multi, int socket, int mask, int *running);
void *curl_slist_append(void *list, const char *text);
void curl_slist_free_all(void *list);
curl_handle *curl_url(void);
int curl_url_get(curl_handle *url, int part, char **text, unsigned int flags);
int curl_url_set(curl_handle *url, int part, const char *text, unsigned int flags);
char *curl_version(void);
void *curl_version_info(int age);

FORWARD(curl_handle *, curl_easy_init, (void), ())
FORWARD_VOID(curl_easy_cleanup, (curl_handle * easy), (easy))
FORWARD(int, curl_easy_pause, (curl_handle * easy, int bitmask), (easy, bitmask))
FORWARD(const char *, curl_easy_strerror, (int code), (code))
FORWARD_VARIADIC(curl_easy_setopt, easy, option)
FORWARD_VARIADIC(curl_easy_getinfo, easy, info)
FORWARD_VOID(curl_free, (void *pointer), (pointer))
FORWARD(int, curl_global_init, (long flags), (flags))
FORWARD(int, curl_multi_add_handle, (curl_handle * multi, curl_handle *easy), (multi, easy))
FORWARD(int, curl_multi_assign, (curl_handle * multi, int socket, void *pointer), (multi, socket, pointer))
FORWARD(int, curl_multi_cleanup, (curl_handle * multi), (multi))
FORWARD(void *, curl_multi_info_read, (curl_handle * multi, int *queued), (multi, queued))
FORWARD(curl_handle *, curl_multi_init, (void), ())
FORWARD(int, curl_multi_remove_handle, (curl_handle * multi, curl_handle *easy), (multi, easy))
FORWARD_VARIADIC(curl_multi_setopt, multi, option)
FORWARD(int, curl_multi_socket_action, (curl_handle * multi, int socket, int mask, int *running), (multi, socket, mask, running))
FORWARD(void *, curl_slist_append, (void *list, const char *text), (list, text))
FORWARD_VOID(curl_slist_free_all, (void *list), (list))
FORWARD(curl_handle *, curl_url, (void), ())
FORWARD(int, curl_url_get, (curl_handle * url, int part, char **text, unsigned int flags), (url, part, text, flags))
FORWARD(int, curl_url_set, (curl_handle * url, int part, const char *text, unsigned int flags), (url, part, text, flags))
FORWARD(char *, curl_version, (void), ())
FORWARD(void *, curl_version_info, (int age), (age))
