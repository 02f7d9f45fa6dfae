// libmicrohttpd and OpenSSL's libcrypto on first use, for an executable that links the emulator
// (Sources/NativeAuthEmulator) but most often runs as something else: `native-auth` is also
// `native-auth-emulator` when started under that name (Sources/native-auth/main.swift). These are
// the functions NativeAuthEmulator and its C helpers (Sources/CMicroHTTPD/shim.h,
// Sources/CCrypto/shim.h) call, each loading its library with dlopen at the first call of any of
// them and then passing every call on unchanged.
//
// With the linker wrapper of Sources/LazySecretService/linker (Package.swift's
// lazySecretServiceLinkerSettings), nothing is left for libmicrohttpd, GnuTLS and what they need
// (nettle, gmp, p11-kit, libidn2…) or libcrypto to define, so they are not loaded when a `token`
// process starts. A library that cannot be loaded ends the process at its first call with a line on
// standard error naming the package to install, and exit status 1, the emulator's "the server
// cannot start" (EmulatorCommandLine.exitStatuses in Sources/NativeAuthEmulator), as Sources/LazyLibcurl
// and Sources/LazySecretService end with the tool's status 3.
//
// Every forwarder is typed by the real prototype (the headers are included), so a signature that
// drifts from the headers is a compile error, not a wrong call.

#define _GNU_SOURCE
#include "LazyEmulator.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>

// Hidden: the forwarders serve this executable's own calls only, never the libraries' calls
// between themselves once loaded (Sources/LazySecretService/LazySecretService.c says why).
#pragma GCC visibility push(hidden)
#include <microhttpd.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

struct library {
    const char *soname;
    const char *package;
    void *handle;
};

static struct library microhttpd = {"libmicrohttpd.so.12", "libmicrohttpd12", NULL};
static struct library crypto = {"libcrypto.so.3", "libssl3", NULL};
static pthread_once_t microhttpdOnce = PTHREAD_ONCE_INIT;
static pthread_once_t cryptoOnce = PTHREAD_ONCE_INIT;

static void load(struct library *library) {
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) {
        fprintf(stderr, "%s: cannot load %s (%s); install it: on Debian and Ubuntu, apt install %s\n",
                program_invocation_short_name, library->soname, dlerror(), library->package);
        _exit(1);
    }
}

static void loadMicrohttpd(void) { load(&microhttpd); }
static void loadCrypto(void) { load(&crypto); }

static void *resolveOnce(_Atomic(void *) *slot, const char *name, struct library *library, pthread_once_t *once,
                         void (*loader)(void)) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function == NULL) {
        pthread_once(once, loader);
        function = dlsym(library->handle, name);
        if (function == NULL) {
            fprintf(stderr, "LazyEmulator: %s has no %s\n", library->soname, name);
            abort();
        }
        atomic_store_explicit(slot, function, memory_order_release);
    }
    return function;
}

#define REAL_IN(name, library)                                                                                              \
    ((__typeof__(&(name)))resolveOnce(&real_##name, #name, &library, &library##Once, load_##library))
#define load_microhttpd loadMicrohttpd
#define load_crypto loadCrypto

#define FORWARD(library, result, name, parameters, arguments)                                                               \
    static _Atomic(void *) real_##name;                                                                                     \
    result(name) parameters { return REAL_IN(name, library) arguments; }

#define FORWARD_VOID(library, name, parameters, arguments)                                                                  \
    static _Atomic(void *) real_##name;                                                                                     \
    void(name) parameters { REAL_IN(name, library) arguments; }

// ---- libmicrohttpd --------------------------------------------------------------------------------
FORWARD(microhttpd, enum MHD_Result, MHD_add_response_header, (struct MHD_Response * response, const char *header, const char *content),
        (response, header, content))
FORWARD(microhttpd, struct MHD_Response *, MHD_create_response_from_buffer,
        (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
FORWARD_VOID(microhttpd, MHD_destroy_response, (struct MHD_Response * response), (response))
FORWARD(microhttpd, int, MHD_get_connection_values,
        (struct MHD_Connection * connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *iterator_cls),
        (connection, kind, iterator, iterator_cls))
FORWARD(microhttpd, enum MHD_Result, MHD_is_feature_supported, (enum MHD_FEATURE feature), (feature))
FORWARD(microhttpd, enum MHD_Result, MHD_queue_response,
        (struct MHD_Connection * connection, unsigned int status_code, struct MHD_Response *response),
        (connection, status_code, response))
FORWARD_VOID(microhttpd, MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))

// The options list of MHD_start_daemon, passed on through its va_list form.
static _Atomic(void *) real_MHD_start_daemon_va;

struct MHD_Daemon *(MHD_start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                      MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    va_list options;
    va_start(options, dh_cls);
    struct MHD_Daemon *daemon = REAL_IN(MHD_start_daemon_va, microhttpd)(flags, port, apc, apc_cls, dh, dh_cls, options);
    va_end(options);
    return daemon;
}

// The one query the emulator makes, MHD_DAEMON_INFO_BIND_PORT, takes no argument after the type;
// so do the other kinds this forwarder may pass on (libmicrohttpd reads none for them).
static _Atomic(void *) real_MHD_get_daemon_info;

const union MHD_DaemonInfo *(MHD_get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
    return REAL_IN(MHD_get_daemon_info, microhttpd)(daemon, info_type);
}

// ---- libcrypto ------------------------------------------------------------------------------------
// ERR_clear_error and EVP_PKEY_free, which the emulator's helpers call too, are Sources/LazyOpenSSL's
// (native-auth links both; one definition each): the same libcrypto.so.3, loaded by whichever is first.
FORWARD(crypto, int, BN_bn2bin, (const BIGNUM *a, unsigned char *to), (a, to))
FORWARD_VOID(crypto, BN_free, (BIGNUM * a), (a))
FORWARD(crypto, int, BN_num_bits, (const BIGNUM *a), (a))
FORWARD(crypto, int, CRYPTO_memcmp, (const void *in_a, const void *in_b, size_t len), (in_a, in_b, len))
FORWARD(crypto, int, EVP_Digest,
        (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl),
        (data, count, md, size, type, impl))
FORWARD(crypto, int, EVP_DigestSign, (EVP_MD_CTX * ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen),
        (ctx, sigret, siglen, tbs, tbslen))
FORWARD(crypto, int, EVP_DigestSignInit, (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),
        (ctx, pctx, type, e, pkey))
FORWARD(crypto, int, EVP_DigestVerify,
        (EVP_MD_CTX * ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen),
        (ctx, sigret, siglen, tbs, tbslen))
FORWARD(crypto, int, EVP_DigestVerifyInit, (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),
        (ctx, pctx, type, e, pkey))
FORWARD_VOID(crypto, EVP_MD_CTX_free, (EVP_MD_CTX * ctx), (ctx))
FORWARD(crypto, EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())
FORWARD_VOID(crypto, EVP_PKEY_CTX_free, (EVP_PKEY_CTX * ctx), (ctx))
FORWARD(crypto, EVP_PKEY_CTX *, EVP_PKEY_CTX_new_id, (int id, ENGINE *e), (id, e))
FORWARD(crypto, int, EVP_PKEY_CTX_set_rsa_keygen_bits, (EVP_PKEY_CTX * ctx, int bits), (ctx, bits))
FORWARD(crypto, int, EVP_PKEY_get_bn_param, (const EVP_PKEY *pkey, const char *key_name, BIGNUM **bn), (pkey, key_name, bn))
FORWARD(crypto, int, EVP_PKEY_keygen, (EVP_PKEY_CTX * ctx, EVP_PKEY **ppkey), (ctx, ppkey))
FORWARD(crypto, int, EVP_PKEY_keygen_init, (EVP_PKEY_CTX * ctx), (ctx))
FORWARD(crypto, unsigned char *, EVP_Q_mac,
        (OSSL_LIB_CTX * libctx, const char *name, const char *propq, const char *subalg, const OSSL_PARAM *params, const void *key,
         size_t keylen, const unsigned char *data, size_t datalen, unsigned char *out, size_t outsize, size_t *outlen),
        (libctx, name, propq, subalg, params, key, keylen, data, datalen, out, outsize, outlen))
FORWARD(crypto, const EVP_MD *, EVP_sha256, (void), ())
FORWARD(crypto, int, PKCS5_PBKDF2_HMAC,
        (const char *pass, int passlen, const unsigned char *salt, int saltlen, int iter, const EVP_MD *digest, int keylen,
         unsigned char *out),
        (pass, passlen, salt, saltlen, iter, digest, keylen, out))
FORWARD(crypto, int, RAND_bytes, (unsigned char *buf, int num), (buf, num))

#pragma GCC visibility pop
