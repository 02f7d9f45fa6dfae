// libcurl on first use, for executables that often finish without a request (a command printing
// a cached token): the 23 libcurl functions FoundationNetworking calls, forwarders that load
// libcurl.so.4 at the first call of any of them (Sources/LazyLoading/include/LazyLoading.h).
//
// Linked into an executable built with `--static-swift-stdlib` and Package.swift's
// lazyLinkerSettings, these definitions satisfy FoundationNetworking's references, so libcurl and
// the thirty libraries it needs (TLS, Kerberos, LDAP, SSH, IDN…) are no longer loaded and relocated
// when the process starts: 3 to 4 ms of a fresh process's CPU on the benchmark machine
// (BENCHMARKS.md, "A cached token from a fresh process"). In an ordinary build the shared
// libFoundationNetworking loads libcurl itself and calls it directly; these definitions are then
// neither exported nor called.
//
// A libcurl.so.4 that cannot be loaded ends the process at the first request by the rule of
// Sources/LazyLoading/LazyLoading.c (native-auth: status 3; scripts/test-packages hides libcurl to
// check it).

#include "LazyLibcurl.h"

#include <stdarg.h>

#include "LazyLoading.h"

// libcurl's types are opaque here (no libcurl headers needed to build): handles are pointers,
// codes, options and enumerations are ints, sockets are ints (curl_socket_t on Linux).
typedef void curl_handle;

// The variadic setopt/getinfo functions take exactly one more argument: a long, a pointer, a
// function pointer or a curl_off_t (long long). On the 64-bit Linux ABIs these all travel in one
// general-purpose register as a 64-bit value, which is passed on as such (libcurl reads it back
// with the type the option names).
_Static_assert(sizeof(long) == sizeof(void *) && sizeof(long long) == sizeof(void *), "needs a 64-bit ABI");

LAZY_LIBRARY(libcurl, "libcurl.so.4", "libcurl", "libcurl4")

// The variadic ones take exactly one more argument (see the assertion above), passed on as is.
#define FORWARD_VARIADIC(name, handle, option)                                                                              \
    LAZY_SLOT(name)                                                                                                         \
    int(name)(curl_handle * handle, int option, ...) {                                                                      \
        va_list more;                                                                                                       \
        va_start(more, option);                                                                                             \
        void *value = va_arg(more, void *);                                                                                 \
        va_end(more);                                                                                                       \
        return LAZY_REAL(libcurl, name)(handle, option, value);                                                             \
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

LAZY_FORWARD(libcurl, curl_handle *, curl_easy_init, (void), ())
LAZY_FORWARD_VOID(libcurl, curl_easy_cleanup, (curl_handle * easy), (easy))
LAZY_FORWARD(libcurl, int, curl_easy_pause, (curl_handle * easy, int bitmask), (easy, bitmask))
LAZY_FORWARD(libcurl, const char *, curl_easy_strerror, (int code), (code))
FORWARD_VARIADIC(curl_easy_setopt, easy, option)
FORWARD_VARIADIC(curl_easy_getinfo, easy, info)
LAZY_FORWARD_VOID(libcurl, curl_free, (void *pointer), (pointer))
LAZY_FORWARD(libcurl, int, curl_global_init, (long flags), (flags))
LAZY_FORWARD(libcurl, int, curl_multi_add_handle, (curl_handle * multi, curl_handle *easy), (multi, easy))
LAZY_FORWARD(libcurl, int, curl_multi_assign, (curl_handle * multi, int socket, void *pointer), (multi, socket, pointer))
LAZY_FORWARD(libcurl, int, curl_multi_cleanup, (curl_handle * multi), (multi))
LAZY_FORWARD(libcurl, void *, curl_multi_info_read, (curl_handle * multi, int *queued), (multi, queued))
LAZY_FORWARD(libcurl, curl_handle *, curl_multi_init, (void), ())
LAZY_FORWARD(libcurl, int, curl_multi_remove_handle, (curl_handle * multi, curl_handle *easy), (multi, easy))
FORWARD_VARIADIC(curl_multi_setopt, multi, option)
LAZY_FORWARD(libcurl, int, curl_multi_socket_action, (curl_handle * multi, int socket, int mask, int *running),
             (multi, socket, mask, running))
LAZY_FORWARD(libcurl, void *, curl_slist_append, (void *list, const char *text), (list, text))
LAZY_FORWARD_VOID(libcurl, curl_slist_free_all, (void *list), (list))
LAZY_FORWARD(libcurl, curl_handle *, curl_url, (void), ())
LAZY_FORWARD(libcurl, int, curl_url_get, (curl_handle * url, int part, char **text, unsigned int flags), (url, part, text, flags))
LAZY_FORWARD(libcurl, int, curl_url_set, (curl_handle * url, int part, const char *text, unsigned int flags),
             (url, part, text, flags))
LAZY_FORWARD(libcurl, char *, curl_version, (void), ())
LAZY_FORWARD(libcurl, void *, curl_version_info, (int age), (age))
