// Non-variadic entry points into libmicrohttpd for Swift, which cannot call C variadic functions.
#ifndef EMU_MHD_SHIM_H
#define EMU_MHD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

typedef enum MHD_Result (*emu_access_handler)(void *cls, struct MHD_Connection *connection, const char *url,
                                              const char *method, const char *version, const char *upload_data,
                                              size_t *upload_data_size, void **req_cls);
typedef void (*emu_completed_handler)(void *cls, struct MHD_Connection *connection, void **req_cls,
                                      enum MHD_RequestTerminationCode toe);

/// Starts a daemon bound to `host` (an IPv4 literal, normally 127.0.0.1) on `port` (0: any free
/// port), one thread per connection, optionally TLS from PEM strings. Returns NULL on failure.
static inline struct MHD_Daemon *emu_start_daemon(const char *host, uint16_t port, const char *cert_pem,
                                                  const char *key_pem, emu_access_handler handler, void *handler_cls,
                                                  emu_completed_handler completed, void *completed_cls,
                                                  unsigned int connection_timeout_seconds) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
    if (cert_pem != NULL && key_pem != NULL) {
        return MHD_start_daemon(flags | MHD_USE_TLS, port, NULL, NULL, handler, handler_cls,
                                MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                MHD_OPTION_HTTPS_MEM_CERT, cert_pem, MHD_OPTION_HTTPS_MEM_KEY, key_pem,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                                MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_END);
}

/// The port the daemon actually listens on (useful after asking for port 0).
static inline uint16_t emu_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Whether this build of libmicrohttpd can serve TLS.
static inline int emu_supports_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

#endif
