// Small helpers over OpenSSL 3 (libssl and libcrypto) for MSALRedis: a TLS client that verifies
// the server's certificate and name, and AES-256-GCM for values kept at rest. Each hides a macro,
// a variadic call or a sequence Swift would have to spell out call by call.
#ifndef MSAL_REDIS_TLS_SHIM_H
#define MSAL_REDIS_TLS_SHIM_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

/// A client context that verifies the peer against `ca_file` (a PEM bundle) or, when NULL, the
/// system's store. Returns NULL when the CA file cannot be loaded.
static inline SSL_CTX *msal_redis_tls_context(const char *ca_file) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (ctx == NULL) return NULL;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    int loaded = ca_file != NULL ? SSL_CTX_load_verify_locations(ctx, ca_file, NULL) : SSL_CTX_set_default_verify_paths(ctx);
    if (loaded != 1) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/// What msal_redis_tls_use_certificate found wrong (0: nothing).
#define MSAL_REDIS_TLS_CERTIFICATE_UNREADABLE 1
#define MSAL_REDIS_TLS_KEY_UNREADABLE 2
#define MSAL_REDIS_TLS_KEY_ENCRYPTED 3
#define MSAL_REDIS_TLS_KEY_MISMATCH 4

/// A passphrase callback that gives none, and sets `*asked` (when not NULL): OpenSSL's own would
/// read the passphrase from the terminal.
static inline int msal_redis_tls_refuse_passphrase(char *buffer, int size, int writing, void *asked) {
    (void)buffer, (void)size, (void)writing;
    if (asked != NULL) *(int *)asked = 1;
    return -1;
}

/// Makes `ctx` send the certificate (and chain) of the PEM file `cert_file`, with the private key
/// of `key_file` (NULL: read from `cert_file` too), and checks that they match. Never asks for a
/// passphrase: an encrypted key is MSAL_REDIS_TLS_KEY_ENCRYPTED. Returns 0 or a code above.
static inline int msal_redis_tls_use_certificate(SSL_CTX *ctx, const char *cert_file, const char *key_file) {
    SSL_CTX_set_default_passwd_cb(ctx, msal_redis_tls_refuse_passphrase);
    int result = 0, asked = 0;
    if (SSL_CTX_use_certificate_chain_file(ctx, cert_file) != 1) {
        result = MSAL_REDIS_TLS_CERTIFICATE_UNREADABLE;
    } else {
        BIO *bio = BIO_new_file(key_file != NULL ? key_file : cert_file, "r");
        EVP_PKEY *key = bio != NULL ? PEM_read_bio_PrivateKey(bio, NULL, msal_redis_tls_refuse_passphrase, &asked) : NULL;
        if (key == NULL) {
            result = asked ? MSAL_REDIS_TLS_KEY_ENCRYPTED : MSAL_REDIS_TLS_KEY_UNREADABLE;
        } else if (SSL_CTX_use_PrivateKey(ctx, key) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
            result = MSAL_REDIS_TLS_KEY_MISMATCH;
        }
        EVP_PKEY_free(key);
        BIO_free(bio);
    }
    ERR_clear_error();
    return result;
}

/// The TLS alert the peer sent (its number, e.g. 116 for certificate_required) that the last error
/// on this thread's queue reports, or 0.
static inline int msal_redis_tls_last_alert(void) {
    unsigned long error = ERR_peek_last_error();
    int reason = ERR_GET_REASON(error);
    if (ERR_GET_LIB(error) != ERR_LIB_SSL || reason < SSL_AD_REASON_OFFSET || reason > SSL_AD_REASON_OFFSET + 255) return 0;
    return reason - SSL_AD_REASON_OFFSET;
}

/// After a call on `ssl` failed: the TLS alert the peer sent, or 0. When the failure was not the
/// alert itself (a write that met the reset of a connection the server ended with an alert, which
/// the kernel still holds), one more non-blocking read lets OpenSSL see the alert.
static inline int msal_redis_tls_received_alert(SSL *ssl) {
    int alert = msal_redis_tls_last_alert();
    if (alert != 0) return alert;
    unsigned char byte;
    ERR_clear_error();
    (void)SSL_read(ssl, &byte, 1);
    return msal_redis_tls_last_alert();
}

/// A session on descriptor `fd` that checks the certificate names `host` (a DNS name or an IP
/// address) and sends it as SNI when it is a name. Returns NULL on failure.
static inline SSL *msal_redis_tls_session(SSL_CTX *ctx, int fd, const char *host, int host_is_ip) {
    SSL *ssl = SSL_new(ctx);
    if (ssl == NULL) return NULL;
    int ok = SSL_set_fd(ssl, fd) == 1;
    if (ok && host_is_ip) {
        ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1;
    } else if (ok) {
        ok = SSL_set1_host(ssl, host) == 1 && SSL_set_tlsext_host_name(ssl, host) == 1;
    }
    if (!ok) {
        SSL_free(ssl);
        return NULL;
    }
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return ssl;
}

/// Clears OpenSSL's per-thread error queue (before a call whose SSL_get_error is read).
static inline void msal_redis_tls_clear_errors(void) { ERR_clear_error(); }

/// Fills `out` with `length` random bytes from the kernel's CSPRNG (getrandom(2)); 1 on success.
/// Not OpenSSL's: ids and versions then need no libcrypto, so a program that loads OpenSSL at its
/// first use (Sources/LazyOpenSSL) never loads it for a plain redis:// without encryption.
static inline int msal_redis_random(unsigned char *out, int length) {
    size_t done = 0;
    while (done < (size_t)length) {
        ssize_t got = getrandom(out + done, (size_t)length - done, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        done += (size_t)got;
    }
    return 1;
}

/// AES-256-GCM encryption of `plain` with a 32-byte `key` and a 12-byte `iv`; `aad` is
/// authenticated too. Writes `plain_length` bytes to `cipher` and 16 to `tag`. 1 on success.
static inline int msal_redis_seal(const unsigned char *key, const unsigned char *iv, const unsigned char *aad, int aad_length,
                                  const unsigned char *plain, int plain_length, unsigned char *cipher, unsigned char *tag) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int length = 0, ok = EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, iv) == 1;
    ok = ok && (aad_length == 0 || EVP_EncryptUpdate(ctx, NULL, &length, aad, aad_length) == 1);
    ok = ok && (plain_length == 0 || EVP_EncryptUpdate(ctx, cipher, &length, plain, plain_length) == 1);
    ok = ok && EVP_EncryptFinal_ex(ctx, cipher + (plain_length == 0 ? 0 : length), &length) == 1;
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/// The inverse of msal_redis_seal: 1 when `tag` authenticates `cipher` and `aad` under `key`
/// (and `plain` then holds the plain text), 0 otherwise (nothing in `plain` may be used).
static inline int msal_redis_open(const unsigned char *key, const unsigned char *iv, const unsigned char *aad, int aad_length,
                                  const unsigned char *cipher, int cipher_length, const unsigned char *tag, unsigned char *plain) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    unsigned char tag_copy[16];
    memcpy(tag_copy, tag, 16);
    int length = 0, ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, iv) == 1;
    ok = ok && (aad_length == 0 || EVP_DecryptUpdate(ctx, NULL, &length, aad, aad_length) == 1);
    ok = ok && (cipher_length == 0 || EVP_DecryptUpdate(ctx, plain, &length, cipher, cipher_length) == 1);
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tag_copy) == 1;
    ok = ok && EVP_DecryptFinal_ex(ctx, plain + (cipher_length == 0 ? 0 : length), &length) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

#endif
