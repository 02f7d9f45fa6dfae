// libmicrohttpd on first use, for an executable that links the emulator
// (Sources/NativeAuthEmulator) but most often runs as something else: `native-auth` is also
// `native-auth-emulator` when started under that name (Sources/native-auth/main.swift). These are
// the libmicrohttpd functions NativeAuthEmulator and its C helpers (Sources/CMicroHTTPD/shim.h)
// call, forwarders that load libmicrohttpd.so.12 at the first call of any of them
// (Sources/LazyLoading/include/LazyLoading.h). The emulator's libcrypto functions are
// Sources/LazyOpenSSL's, with one libcrypto handle for the whole program.
//
// With Package.swift's lazyLinkerSettings, nothing is left for libmicrohttpd, GnuTLS and what they
// need (nettle, gmp, p11-kit, libidn2…) to define, so they are not loaded when a `token` process
// starts. A library that cannot be loaded ends the process at its first call by the rule of
// Sources/LazyLoading/LazyLoading.c: as native-auth-emulator with status 1, the emulator's "the
// server cannot start" (EmulatorCommandLine.exitStatuses in Sources/NativeAuthEmulator).
//
// Every forwarder is typed by the real prototype (the header is included).

#include "LazyEmulator.h"

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>

#include "LazyLoading.h"

// Hidden: the forwarders serve this executable's own calls only, never the libraries' calls
// between themselves once loaded (Sources/LazySecretService/LazySecretService.c says why).
#pragma GCC visibility push(hidden)
#include <microhttpd.h>

LAZY_LIBRARY(libmicrohttpd, "libmicrohttpd.so.12", "libmicrohttpd for the emulator", "libmicrohttpd12")

LAZY_FORWARD(libmicrohttpd, enum MHD_Result, MHD_add_response_header,
             (struct MHD_Response * response, const char *header, const char *content), (response, header, content))
LAZY_FORWARD(libmicrohttpd, struct MHD_Response *, MHD_create_response_from_buffer,
             (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
LAZY_FORWARD_VOID(libmicrohttpd, MHD_destroy_response, (struct MHD_Response * response), (response))
LAZY_FORWARD(libmicrohttpd, int, MHD_get_connection_values,
             (struct MHD_Connection * connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *iterator_cls),
             (connection, kind, iterator, iterator_cls))
LAZY_FORWARD(libmicrohttpd, enum MHD_Result, MHD_is_feature_supported, (enum MHD_FEATURE feature), (feature))
LAZY_FORWARD(libmicrohttpd, enum MHD_Result, MHD_queue_response,
             (struct MHD_Connection * connection, unsigned int status_code, struct MHD_Response *response),
             (connection, status_code, response))
LAZY_FORWARD_VOID(libmicrohttpd, MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))

// The options list of MHD_start_daemon, passed on through its va_list form.
LAZY_SLOT(MHD_start_daemon_va)

struct MHD_Daemon *(MHD_start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                      MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    va_list options;
    va_start(options, dh_cls);
    struct MHD_Daemon *daemon = LAZY_REAL(libmicrohttpd, MHD_start_daemon_va)(flags, port, apc, apc_cls, dh, dh_cls, options);
    va_end(options);
    return daemon;
}

// The one query the emulator makes, MHD_DAEMON_INFO_BIND_PORT, takes no argument after the type;
// so do the other kinds this forwarder may pass on (libmicrohttpd reads none for them).
LAZY_SLOT(MHD_get_daemon_info)

const union MHD_DaemonInfo *(MHD_get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
    return LAZY_REAL(libmicrohttpd, MHD_get_daemon_info)(daemon, info_type);
}

#pragma GCC visibility pop
