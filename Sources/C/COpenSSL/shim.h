#ifndef PHONEVERIFY_COPENSSL_SHIM_H
#define PHONEVERIFY_COPENSSL_SHIM_H

/*
 * OpenSSL 3.0 (libcrypto only) as seen by the Swift `Crypto` wrapper module.
 * Only non-deprecated 3.0 APIs are used, so Swift sees no deprecation warnings.
 * Function-like macros and composite constants that Swift's Clang importer
 * cannot see are re-exported below as static inline helpers.
 */
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/* The EVP_PKEY_PUBLIC_KEY selection for EVP_PKEY_fromdata (a composite macro). */
static inline int shim_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }

/*
 * OSSL_PARAM_BLD_push_* keep the key-name pointer until OSSL_PARAM_BLD_to_param,
 * and a Swift String passed as `const char *` is only valid during the call.
 * Pushing with the C string literals here keeps the names valid.
 */
static inline int shim_OSSL_PARAM_BLD_push_rsa_public(OSSL_PARAM_BLD *bld, const BIGNUM *n, const BIGNUM *e) {
    return OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) == 1
        && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) == 1;
}

/*
 * EVP_PKEY_CTX_new_from_name may keep the key-type name pointer in the context;
 * these pass C literals so the name outlives any Swift temporary.
 */
static inline EVP_PKEY_CTX *shim_EVP_PKEY_CTX_new_EC(void) {
    return EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
}
static inline EVP_PKEY_CTX *shim_EVP_PKEY_CTX_new_RSA(void) {
    return EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
}

/*
 * EVP_MAC_init for HMAC-SHA-256 with the digest parameter built on the stack
 * from C literals (no per-call allocations for the OSSL_PARAM array).
 */
static inline int shim_EVP_MAC_init_HMAC_SHA256(EVP_MAC_CTX *ctx, const unsigned char *key, size_t keylen) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(ctx, key, keylen, params);
}

/* The same for HMAC-SHA-1 (only to check vendors' webhook signatures, e.g. Twilio's). */
static inline int shim_EVP_MAC_init_HMAC_SHA1(EVP_MAC_CTX *ctx, const unsigned char *key, size_t keylen) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA1", 0);
    params[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(ctx, key, keylen, params);
}

/* BIO_get_mem_data is a macro around BIO_ctrl; returns the length, sets *data. */
static inline long shim_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/*
 * Password callback that refuses to supply a passphrase: encrypted PEM input
 * fails cleanly instead of OpenSSL prompting on the terminal.
 */
static inline int shim_no_password_cb(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return -1;
}

/* PEM_read_bio_PrivateKey that never prompts for a passphrase. */
static inline EVP_PKEY *shim_PEM_read_bio_PrivateKey(BIO *bio) {
    return PEM_read_bio_PrivateKey(bio, NULL, shim_no_password_cb, NULL);
}

/* PEM_read_bio_PUBKEY that never prompts for a passphrase. */
static inline EVP_PKEY *shim_PEM_read_bio_PUBKEY(BIO *bio) {
    return PEM_read_bio_PUBKEY(bio, NULL, shim_no_password_cb, NULL);
}

/* Unencrypted PKCS#8 PEM output. */
static inline int shim_PEM_write_bio_PKCS8PrivateKey(BIO *bio, const EVP_PKEY *pkey) {
    return PEM_write_bio_PKCS8PrivateKey(bio, pkey, NULL, NULL, 0, NULL, NULL);
}

/*
 * i2d_ECDSA_SIG into a caller buffer of `capacity` bytes; returns the DER
 * length, or -1 on failure or if it does not fit.
 */
static inline int shim_i2d_ECDSA_SIG(const ECDSA_SIG *sig, unsigned char *out, int capacity) {
    int len = i2d_ECDSA_SIG(sig, NULL);
    if (len <= 0 || len > capacity) return -1;
    unsigned char *p = out;
    return i2d_ECDSA_SIG(sig, &p);
}

/* d2i_ECDSA_SIG from a buffer; NULL if malformed or if bytes trail the DER. */
static inline ECDSA_SIG *shim_d2i_ECDSA_SIG(const unsigned char *der, long length) {
    const unsigned char *p = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, length);
    if (sig != NULL && p != der + length) {
        ECDSA_SIG_free(sig);
        return NULL;
    }
    return sig;
}

/*
 * X.509 (App Attest certificate chains). d2i_X509 / d2i_PUBKEY from a buffer; NULL if
 * malformed or if bytes trail the DER.
 */
static inline X509 *shim_d2i_X509(const unsigned char *der, long length) {
    const unsigned char *p = der;
    X509 *cert = d2i_X509(NULL, &p, length);
    if (cert != NULL && p != der + length) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}
static inline EVP_PKEY *shim_d2i_PUBKEY(const unsigned char *der, long length) {
    const unsigned char *p = der;
    EVP_PKEY *pkey = d2i_PUBKEY(NULL, &p, length);
    if (pkey != NULL && p != der + length) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    return pkey;
}

/* i2d_PUBKEY into a caller buffer of `capacity` bytes; the DER length, or -1. */
static inline int shim_i2d_PUBKEY(const EVP_PKEY *pkey, unsigned char *out, int capacity) {
    int len = i2d_PUBKEY(pkey, NULL);
    if (len <= 0 || len > capacity) return -1;
    unsigned char *p = out;
    return i2d_PUBKEY(pkey, &p);
}

/* The STACK_OF(X509) macros, which Swift cannot see. Freeing the stack leaves the certificates. */
static inline STACK_OF(X509) *shim_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int shim_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
static inline void shim_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

#endif
