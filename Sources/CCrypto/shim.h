// Small helpers over OpenSSL 3 libcrypto for Swift: RSA key generation, RS256 sign and verify,
// and the public modulus and exponent for a JWKS. Each hides macros or variadic calls.
#ifndef EMU_CRYPTO_SHIM_H
#define EMU_CRYPTO_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/bio.h>

/// A new RSA key of `bits` bits, or NULL.
static inline EVP_PKEY *emu_rsa_generate(int bits) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    if (ctx == NULL) return NULL;
    if (EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, bits) <= 0 ||
        EVP_PKEY_keygen(ctx, &key) <= 0) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return key;
}

/// Writes the big-endian bytes of the key's parameter `which` (0: modulus n, 1: exponent e) into
/// `out` (capacity `capacity`); returns the length, or -1.
static inline int emu_rsa_public_part(const EVP_PKEY *key, int which, unsigned char *out, int capacity) {
    BIGNUM *number = NULL;
    const char *name = which == 0 ? OSSL_PKEY_PARAM_RSA_N : OSSL_PKEY_PARAM_RSA_E;
    if (EVP_PKEY_get_bn_param(key, name, &number) != 1) return -1;
    int length = BN_num_bytes(number);
    if (length > capacity) { BN_free(number); return -1; }
    BN_bn2bin(number, out);
    BN_free(number);
    return length;
}

/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256). Writes the signature into `signature` (capacity in
/// `*length`, set to the signature length). Returns 1 on success.
static inline int emu_rs256_sign(EVP_PKEY *key, const unsigned char *data, size_t data_length,
                                 unsigned char *signature, size_t *length) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return 0;
    int ok = EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
             EVP_DigestSign(ctx, signature, length, data, data_length) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

/// Returns 1 when `signature` is a valid RS256 signature of `data` under `key`.
static inline int emu_rs256_verify(EVP_PKEY *key, const unsigned char *data, size_t data_length,
                                   const unsigned char *signature, size_t signature_length) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return 0;
    int ok = EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
             EVP_DigestVerify(ctx, signature, signature_length, data, data_length) == 1;
    EVP_MD_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

/// PBKDF2-HMAC-SHA256. Returns 1 on success.
static inline int emu_pbkdf2_sha256(const char *password, int password_length, const unsigned char *salt,
                                    int salt_length, int iterations, unsigned char *out, int out_length) {
    return PKCS5_PBKDF2_HMAC(password, password_length, salt, salt_length, iterations, EVP_sha256(), out_length, out);
}

/// HMAC-SHA256 (for the tests' HS256 tokens). Writes 32 bytes. Returns 1 on success.
static inline int emu_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data,
                                  size_t data_length, unsigned char *out) {
    size_t out_length = 32;
    return EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, key, key_length, data, data_length, out, 32, &out_length) != NULL;
}

#endif
