// OpenSSL on first use, for native-auth, whose `token` usually ends without TLS or AES: the 40
// libssl and libcrypto functions MSALRedis calls (Sources/CRedisTLS/shim.h and Sources/MSALRedis),
// each loading its library with dlopen at the first call of any of its functions and then passing
// every call on unchanged. Each forwarder is declared by OpenSSL's own header and typed with
// `__typeof__` of it, so a parameter list that drifts from the prototype does not compile.
//
// Linked into native-auth with the linker scripts in link/ (Package.swift's
// lazyOpenSSLLinkerSettings), these definitions satisfy MSALRedis's references, so neither library
// is recorded as a dependency and loaded when the process starts (docs/cli.md#redis). They are
// hidden: another library loaded later (libcurl's TLS) binds to the real OpenSSL, never to these.
//
// A library that cannot be loaded ends the process at its first use with a message on standard
// error naming the package to install, and exit status 3 (ExitCode.configuration,
// docs/cli.md#exit-codes), as the dynamic loader would have ended it at start.

#define _GNU_SOURCE
#include "LazyOpenSSL.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// One library, opened once.
struct library {
    const char *name;
    pthread_once_t once;
    void *handle;
};

static struct library libcrypto = {"libcrypto.so.3", PTHREAD_ONCE_INIT, NULL};
static struct library libssl = {"libssl.so.3", PTHREAD_ONCE_INIT, NULL};

static void fail(const char *name, const char *why) {
    // What a user can act on, rather than an abort and a core file.
    fprintf(stderr, "%s: cannot load %s (%s); install OpenSSL 3: on Debian and Ubuntu, apt install libssl3\n",
            program_invocation_short_name, name, why != NULL ? why : "unknown error");
    _exit(3);
}

static void openCrypto(void) {
    libcrypto.handle = dlopen(libcrypto.name, RTLD_NOW | RTLD_LOCAL);
    if (libcrypto.handle == NULL) fail(libcrypto.name, dlerror());
}

static void openSSL(void) {
    libssl.handle = dlopen(libssl.name, RTLD_NOW | RTLD_LOCAL);
    if (libssl.handle == NULL) fail(libssl.name, dlerror());
}

static void *resolve(struct library *library, void (*open)(void), const char *name) {
    pthread_once(&library->once, open);
    void *function = dlsym(library->handle, name);
    if (function == NULL) fail(library->name, name);
    return function;
}

// The real function's address, looked up at the first call and kept in `slot`.
static void *resolveOnce(_Atomic(void *) *slot, struct library *library, void (*open)(void), const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function == NULL) {
        function = resolve(library, open, name);
        atomic_store_explicit(slot, function, memory_order_release);
    }
    return function;
}

#define LIBCRYPTO(name) ((__typeof__(&name))resolveOnce(&real_##name, &libcrypto, openCrypto, #name))
#define LIBSSL(name) ((__typeof__(&name))resolveOnce(&real_##name, &libssl, openSSL, #name))

// One forwarder: `parameters` as OpenSSL declares them, `arguments` the same names.
#define FORWARD(library, result, name, parameters, arguments)                                  \
    static _Atomic(void *) real_##name;                                                        \
    result name parameters { return library(name) arguments; }

#define FORWARD_VOID(library, name, parameters, arguments)                                     \
    static _Atomic(void *) real_##name;                                                        \
    void name parameters { library(name) arguments; }

// libcrypto: AES-256-GCM at rest, errors, certificate checks.
FORWARD_VOID(LIBCRYPTO, ERR_clear_error, (void), ())
FORWARD(LIBCRYPTO, EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), ())
FORWARD_VOID(LIBCRYPTO, EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX * c), (c))
FORWARD(LIBCRYPTO, int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX * ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr))
FORWARD(LIBCRYPTO, const EVP_CIPHER *, EVP_aes_256_gcm, (void), ())
FORWARD(LIBCRYPTO, int, EVP_EncryptInit_ex,
        (EVP_CIPHER_CTX * ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv),
        (ctx, cipher, impl, key, iv))
FORWARD(LIBCRYPTO, int, EVP_EncryptUpdate, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl),
        (ctx, out, outl, in, inl))
FORWARD(LIBCRYPTO, int, EVP_EncryptFinal_ex, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl), (ctx, out, outl))
FORWARD(LIBCRYPTO, int, EVP_DecryptInit_ex,
        (EVP_CIPHER_CTX * ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv),
        (ctx, cipher, impl, key, iv))
FORWARD(LIBCRYPTO, int, EVP_DecryptUpdate, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl),
        (ctx, out, outl, in, inl))
FORWARD(LIBCRYPTO, int, EVP_DecryptFinal_ex, (EVP_CIPHER_CTX * ctx, unsigned char *outm, int *outl), (ctx, outm, outl))
FORWARD(LIBCRYPTO, int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM * param, const char *ipasc), (param, ipasc))
FORWARD(LIBCRYPTO, const char *, X509_verify_cert_error_string, (long n), (n))
FORWARD(LIBCRYPTO, unsigned long, ERR_peek_last_error, (void), ())

// libcrypto: the client certificate's private key (msal_redis_tls_use_certificate).
FORWARD(LIBCRYPTO, BIO *, BIO_new_file, (const char *filename, const char *mode), (filename, mode))
FORWARD(LIBCRYPTO, int, BIO_free, (BIO * a), (a))
FORWARD(LIBCRYPTO, EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO * out, EVP_PKEY **x, pem_password_cb *cb, void *u), (out, x, cb, u))
FORWARD_VOID(LIBCRYPTO, EVP_PKEY_free, (EVP_PKEY * pkey), (pkey))

// libssl: the TLS client of rediss://.
FORWARD(LIBSSL, const SSL_METHOD *, TLS_client_method, (void), ())
FORWARD(LIBSSL, SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *meth), (meth))
FORWARD_VOID(LIBSSL, SSL_CTX_free, (SSL_CTX * ctx), (ctx))
FORWARD(LIBSSL, long, SSL_CTX_ctrl, (SSL_CTX * ctx, int cmd, long larg, void *parg), (ctx, cmd, larg, parg))
FORWARD_VOID(LIBSSL, SSL_CTX_set_verify, (SSL_CTX * ctx, int mode, SSL_verify_cb callback), (ctx, mode, callback))
FORWARD(LIBSSL, int, SSL_CTX_load_verify_locations, (SSL_CTX * ctx, const char *CAfile, const char *CApath), (ctx, CAfile, CApath))
FORWARD(LIBSSL, int, SSL_CTX_set_default_verify_paths, (SSL_CTX * ctx), (ctx))
FORWARD(LIBSSL, SSL *, SSL_new, (SSL_CTX * ctx), (ctx))
FORWARD_VOID(LIBSSL, SSL_free, (SSL * ssl), (ssl))
FORWARD(LIBSSL, int, SSL_set_fd, (SSL * s, int fd), (s, fd))
FORWARD(LIBSSL, long, SSL_ctrl, (SSL * ssl, int cmd, long larg, void *parg), (ssl, cmd, larg, parg))
FORWARD(LIBSSL, X509_VERIFY_PARAM *, SSL_get0_param, (SSL * ssl), (ssl))
FORWARD(LIBSSL, int, SSL_set1_host, (SSL * s, const char *hostname), (s, hostname))
FORWARD(LIBSSL, int, SSL_connect, (SSL * ssl), (ssl))
FORWARD(LIBSSL, int, SSL_read, (SSL * ssl, void *buf, int num), (ssl, buf, num))
FORWARD(LIBSSL, int, SSL_write, (SSL * ssl, const void *buf, int num), (ssl, buf, num))
FORWARD(LIBSSL, int, SSL_get_error, (const SSL *s, int ret_code), (s, ret_code))
FORWARD(LIBSSL, long, SSL_get_verify_result, (const SSL *ssl), (ssl))
FORWARD_VOID(LIBSSL, SSL_CTX_set_default_passwd_cb, (SSL_CTX * ctx, pem_password_cb *cb), (ctx, cb))
FORWARD(LIBSSL, int, SSL_CTX_use_certificate_chain_file, (SSL_CTX * ctx, const char *file), (ctx, file))
FORWARD(LIBSSL, int, SSL_CTX_use_PrivateKey, (SSL_CTX * ctx, EVP_PKEY *pkey), (ctx, pkey))
FORWARD(LIBSSL, int, SSL_CTX_check_private_key, (const SSL_CTX *ctx), (ctx))

#pragma GCC visibility pop
