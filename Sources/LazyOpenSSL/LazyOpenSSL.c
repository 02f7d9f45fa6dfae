// OpenSSL on first use, for native-auth, whose `token` usually ends without TLS, AES or the
// emulator: the libssl and libcrypto functions MSALRedis calls (Sources/CRedisTLS/shim.h and
// Sources/MSALRedis) and the libcrypto functions the emulator calls (Sources/CCrypto/shim.h and
// Sources/NativeAuthEmulator), forwarders that load their library at the first call of any of its
// functions (Sources/LazyLoading/include/LazyLoading.h). One handle for each library, whichever
// part of the program calls first. Each forwarder is declared by OpenSSL's own header, so a
// parameter list that drifts from the prototype does not compile.
//
// Linked into native-auth with Package.swift's lazyLinkerSettings, these definitions satisfy
// MSALRedis's and NativeAuthEmulator's references, so neither library is recorded as a dependency
// and loaded when the process starts (docs/cli.md#redis). They are hidden: another library loaded
// later (libcurl's TLS) binds to the real OpenSSL, never to these.
//
// A library that cannot be loaded ends the process at its first use by the rule of
// Sources/LazyLoading/LazyLoading.c (native-auth: status 3; as native-auth-emulator: 1).

#include "LazyOpenSSL.h"

#include "LazyLoading.h"

#pragma GCC visibility push(hidden)
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

LAZY_LIBRARY(libcrypto, "libcrypto.so.3", "OpenSSL 3", "libssl3")
LAZY_LIBRARY(libssl, "libssl.so.3", "OpenSSL 3", "libssl3")

// ---- libcrypto: AES-256-GCM at rest, errors, certificate checks (MSALRedis) ------------------------
LAZY_FORWARD_VOID(libcrypto, ERR_clear_error, (void), ())
LAZY_FORWARD(libcrypto, EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), ())
LAZY_FORWARD_VOID(libcrypto, EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX * c), (c))
LAZY_FORWARD(libcrypto, int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX * ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr))
LAZY_FORWARD(libcrypto, const EVP_CIPHER *, EVP_aes_256_gcm, (void), ())
LAZY_FORWARD(libcrypto, int, EVP_EncryptInit_ex,
             (EVP_CIPHER_CTX * ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv),
             (ctx, cipher, impl, key, iv))
LAZY_FORWARD(libcrypto, int, EVP_EncryptUpdate,
             (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), (ctx, out, outl, in, inl))
LAZY_FORWARD(libcrypto, int, EVP_EncryptFinal_ex, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl), (ctx, out, outl))
LAZY_FORWARD(libcrypto, int, EVP_DecryptInit_ex,
             (EVP_CIPHER_CTX * ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv),
             (ctx, cipher, impl, key, iv))
LAZY_FORWARD(libcrypto, int, EVP_DecryptUpdate,
             (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), (ctx, out, outl, in, inl))
LAZY_FORWARD(libcrypto, int, EVP_DecryptFinal_ex, (EVP_CIPHER_CTX * ctx, unsigned char *outm, int *outl), (ctx, outm, outl))
LAZY_FORWARD(libcrypto, int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM * param, const char *ipasc), (param, ipasc))
LAZY_FORWARD(libcrypto, const char *, X509_verify_cert_error_string, (long n), (n))
LAZY_FORWARD(libcrypto, unsigned long, ERR_peek_last_error, (void), ())

// ---- libcrypto: the client certificate's private key (msal_redis_tls_use_certificate) ------------
LAZY_FORWARD(libcrypto, BIO *, BIO_new_file, (const char *filename, const char *mode), (filename, mode))
LAZY_FORWARD(libcrypto, int, BIO_free, (BIO * a), (a))
LAZY_FORWARD(libcrypto, EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO * out, EVP_PKEY **x, pem_password_cb *cb, void *u),
             (out, x, cb, u))
LAZY_FORWARD_VOID(libcrypto, EVP_PKEY_free, (EVP_PKEY * pkey), (pkey))

// ---- libcrypto: the emulator's keys, signatures, password hashes and random bytes -----------------
// (Sources/CCrypto/shim.h; ERR_clear_error and EVP_PKEY_free above serve it too.)
LAZY_FORWARD(libcrypto, int, BN_bn2bin, (const BIGNUM *a, unsigned char *to), (a, to))
LAZY_FORWARD_VOID(libcrypto, BN_free, (BIGNUM * a), (a))
LAZY_FORWARD(libcrypto, int, BN_num_bits, (const BIGNUM *a), (a))
LAZY_FORWARD(libcrypto, int, CRYPTO_memcmp, (const void *in_a, const void *in_b, size_t len), (in_a, in_b, len))
LAZY_FORWARD(libcrypto, int, EVP_Digest,
             (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl),
             (data, count, md, size, type, impl))
LAZY_FORWARD(libcrypto, int, EVP_DigestSign,
             (EVP_MD_CTX * ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen),
             (ctx, sigret, siglen, tbs, tbslen))
LAZY_FORWARD(libcrypto, int, EVP_DigestSignInit,
             (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey), (ctx, pctx, type, e, pkey))
LAZY_FORWARD(libcrypto, int, EVP_DigestVerify,
             (EVP_MD_CTX * ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen),
             (ctx, sigret, siglen, tbs, tbslen))
LAZY_FORWARD(libcrypto, int, EVP_DigestVerifyInit,
             (EVP_MD_CTX * ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey), (ctx, pctx, type, e, pkey))
LAZY_FORWARD_VOID(libcrypto, EVP_MD_CTX_free, (EVP_MD_CTX * ctx), (ctx))
LAZY_FORWARD(libcrypto, EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())
LAZY_FORWARD_VOID(libcrypto, EVP_PKEY_CTX_free, (EVP_PKEY_CTX * ctx), (ctx))
LAZY_FORWARD(libcrypto, EVP_PKEY_CTX *, EVP_PKEY_CTX_new_id, (int id, ENGINE *e), (id, e))
LAZY_FORWARD(libcrypto, int, EVP_PKEY_CTX_set_rsa_keygen_bits, (EVP_PKEY_CTX * ctx, int bits), (ctx, bits))
LAZY_FORWARD(libcrypto, int, EVP_PKEY_get_bn_param, (const EVP_PKEY *pkey, const char *key_name, BIGNUM **bn),
             (pkey, key_name, bn))
LAZY_FORWARD(libcrypto, int, EVP_PKEY_keygen, (EVP_PKEY_CTX * ctx, EVP_PKEY **ppkey), (ctx, ppkey))
LAZY_FORWARD(libcrypto, int, EVP_PKEY_keygen_init, (EVP_PKEY_CTX * ctx), (ctx))
LAZY_FORWARD(libcrypto, unsigned char *, EVP_Q_mac,
             (OSSL_LIB_CTX * libctx, const char *name, const char *propq, const char *subalg, const OSSL_PARAM *params,
              const void *key, size_t keylen, const unsigned char *data, size_t datalen, unsigned char *out, size_t outsize,
              size_t *outlen),
             (libctx, name, propq, subalg, params, key, keylen, data, datalen, out, outsize, outlen))
LAZY_FORWARD(libcrypto, const EVP_MD *, EVP_sha256, (void), ())
LAZY_FORWARD(libcrypto, int, PKCS5_PBKDF2_HMAC,
             (const char *pass, int passlen, const unsigned char *salt, int saltlen, int iter, const EVP_MD *digest, int keylen,
              unsigned char *out),
             (pass, passlen, salt, saltlen, iter, digest, keylen, out))
LAZY_FORWARD(libcrypto, int, RAND_bytes, (unsigned char *buf, int num), (buf, num))

// ---- libssl: the TLS client of rediss:// ------------------------------------------------------------
LAZY_FORWARD(libssl, const SSL_METHOD *, TLS_client_method, (void), ())
LAZY_FORWARD(libssl, SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *meth), (meth))
LAZY_FORWARD_VOID(libssl, SSL_CTX_free, (SSL_CTX * ctx), (ctx))
LAZY_FORWARD(libssl, long, SSL_CTX_ctrl, (SSL_CTX * ctx, int cmd, long larg, void *parg), (ctx, cmd, larg, parg))
LAZY_FORWARD_VOID(libssl, SSL_CTX_set_verify, (SSL_CTX * ctx, int mode, SSL_verify_cb callback), (ctx, mode, callback))
LAZY_FORWARD(libssl, int, SSL_CTX_load_verify_locations, (SSL_CTX * ctx, const char *CAfile, const char *CApath),
             (ctx, CAfile, CApath))
LAZY_FORWARD(libssl, int, SSL_CTX_set_default_verify_paths, (SSL_CTX * ctx), (ctx))
LAZY_FORWARD(libssl, SSL *, SSL_new, (SSL_CTX * ctx), (ctx))
LAZY_FORWARD_VOID(libssl, SSL_free, (SSL * ssl), (ssl))
LAZY_FORWARD(libssl, int, SSL_set_fd, (SSL * s, int fd), (s, fd))
LAZY_FORWARD(libssl, long, SSL_ctrl, (SSL * ssl, int cmd, long larg, void *parg), (ssl, cmd, larg, parg))
LAZY_FORWARD(libssl, X509_VERIFY_PARAM *, SSL_get0_param, (SSL * ssl), (ssl))
LAZY_FORWARD(libssl, int, SSL_set1_host, (SSL * s, const char *hostname), (s, hostname))
LAZY_FORWARD(libssl, int, SSL_connect, (SSL * ssl), (ssl))
LAZY_FORWARD(libssl, int, SSL_read, (SSL * ssl, void *buf, int num), (ssl, buf, num))
LAZY_FORWARD(libssl, int, SSL_write, (SSL * ssl, const void *buf, int num), (ssl, buf, num))
LAZY_FORWARD(libssl, int, SSL_get_error, (const SSL *s, int ret_code), (s, ret_code))
LAZY_FORWARD(libssl, long, SSL_get_verify_result, (const SSL *ssl), (ssl))
LAZY_FORWARD_VOID(libssl, SSL_CTX_set_default_passwd_cb, (SSL_CTX * ctx, pem_password_cb *cb), (ctx, cb))
LAZY_FORWARD(libssl, int, SSL_CTX_use_certificate_chain_file, (SSL_CTX * ctx, const char *file), (ctx, file))
LAZY_FORWARD(libssl, int, SSL_CTX_use_PrivateKey, (SSL_CTX * ctx, EVP_PKEY *pkey), (ctx, pkey))
LAZY_FORWARD(libssl, int, SSL_CTX_check_private_key, (const SSL_CTX *ctx), (ctx))

#pragma GCC visibility pop
