/*
 * Verifies a PhoneVerify credential with libjwt, knowing only the issuer:
 * discovery -> jwks_uri -> key by kid.   usage: verify BASE_URL TOKEN AUDIENCE
 *
 * libjwt 1.10 (Debian 12) has no JWKS support, so this program fetches the discovery document and
 * the JWK Set itself (libcurl, jansson), turns the key the token's `kid` names into a PEM public
 * key (OpenSSL 3) and hands that to jwt_decode(). libjwt 1.10 checks no claims: iss, aud, exp and
 * nbf are checked here.
 *
 * Exit 0 valid (claims as JSON on stdout), 1 refused, 2 usage/discovery/JWKS error,
 * 3 the token's algorithm is one this libjwt cannot verify (EdDSA before libjwt 1.16/2.x).
 *
 * cc -o verify verify.c $(pkg-config --cflags --libs libjwt libcurl jansson libcrypto)
 */
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <jwt.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef LIBJWT_VERSION
#define LIBJWT_VERSION "?"
#endif

struct buffer { char *data; size_t len; };

static size_t collect(char *ptr, size_t size, size_t nmemb, void *userdata) {
    struct buffer *b = userdata;
    size_t n = size * nmemb;
    char *grown = realloc(b->data, b->len + n + 1);
    if (!grown) return 0;
    b->data = grown;
    memcpy(b->data + b->len, ptr, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

/* GETs a URL and parses it as JSON; NULL (and a message on stderr) on any failure. */
static json_t *get_json(const char *url) {
    struct buffer b = {NULL, 0};
    CURL *curl = curl_easy_init();
    if (!curl) return NULL;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
    CURLcode rc = curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK) {
        fprintf(stderr, "GET %s: %s\n", url, curl_easy_strerror(rc));
        free(b.data);
        return NULL;
    }
    json_error_t error;
    json_t *value = json_loadb(b.data ? b.data : "", b.len, 0, &error);
    if (!value) fprintf(stderr, "GET %s: not JSON: %s\n", url, error.text);
    free(b.data);
    return value;
}

/* base64url (no padding) -> bytes; returns the length, or -1. The caller frees *out. */
static long b64url_decode(const char *in, size_t in_len, unsigned char **out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char *bytes = malloc(in_len * 3 / 4 + 3);
    unsigned long acc = 0;
    int bits = 0;
    long n = 0;
    if (!bytes) return -1;
    for (size_t i = 0; i < in_len; i++) {
        const char *p = in[i] ? strchr(alphabet, in[i]) : NULL;
        if (!p) { free(bytes); return -1; }
        acc = (acc << 6) | (unsigned long)(p - alphabet);
        bits += 6;
        if (bits >= 8) { bits -= 8; bytes[n++] = (unsigned char)(acc >> bits); }
    }
    *out = bytes;
    return n;
}

static BIGNUM *member_bn(json_t *jwk, const char *name, size_t pad_to, unsigned char **raw, long *raw_len) {
    const char *s = json_string_value(json_object_get(jwk, name));
    unsigned char *bytes = NULL;
    long n = s ? b64url_decode(s, strlen(s), &bytes) : -1;
    if (n < 0 || (pad_to && (size_t)n != pad_to)) { free(bytes); return NULL; }
    BIGNUM *bn = BN_bin2bn(bytes, (int)n, NULL);
    if (raw) { *raw = bytes; *raw_len = n; } else free(bytes);
    return bn;
}

/* A JWK (RSA, or EC on P-256) as a PEM SubjectPublicKeyInfo; NULL if unusable. Caller frees. */
static char *jwk_to_pem(json_t *jwk, const char *alg) {
    const char *kty = json_string_value(json_object_get(jwk, "kty"));
    const char *crv = json_string_value(json_object_get(jwk, "crv"));
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *pkey = NULL;
    BIGNUM *n = NULL, *e = NULL;
    unsigned char *x = NULL, *y = NULL, point[65];
    long x_len = 0, y_len = 0;
    char *pem = NULL;

    if (kty && !strcmp(alg, "RS256") && !strcmp(kty, "RSA")) {
        n = member_bn(jwk, "n", 0, NULL, NULL);
        e = member_bn(jwk, "e", 0, NULL, NULL);
        if (!n || !e || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n)
            || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e)) goto done;
        ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    } else if (kty && crv && !strcmp(alg, "ES256") && !strcmp(kty, "EC") && !strcmp(crv, "P-256")) {
        BN_free(member_bn(jwk, "x", 32, &x, &x_len));
        BN_free(member_bn(jwk, "y", 32, &y, &y_len));
        if (x_len != 32 || y_len != 32) goto done;
        point[0] = 0x04; /* uncompressed point: 04 || x || y */
        memcpy(point + 1, x, 32);
        memcpy(point + 33, y, 32);
        if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
            || !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point)) goto done;
        ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    } else {
        goto done;
    }
    params = OSSL_PARAM_BLD_to_param(bld);
    if (!ctx || !params || EVP_PKEY_fromdata_init(ctx) <= 0
        || EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0) goto done;
    BIO *mem = BIO_new(BIO_s_mem());
    if (mem && PEM_write_bio_PUBKEY(mem, pkey)) {
        char *data;
        long len = BIO_get_mem_data(mem, &data);
        pem = strndup(data, (size_t)len);
    }
    BIO_free(mem);
done:
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_free(n);
    BN_free(e);
    free(x);
    free(y);
    return pem;
}

static int audience_matches(json_t *aud, const char *audience) {
    if (json_is_string(aud)) return !strcmp(json_string_value(aud), audience);
    size_t i;
    json_t *item;
    json_array_foreach(aud, i, item) if (json_is_string(item) && !strcmp(json_string_value(item), audience)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s BASE_URL TOKEN AUDIENCE\n", argv[0]); return 2; }
    const char *issuer = argv[1], *token = argv[2], *audience = argv[3];
    curl_global_init(CURL_GLOBAL_DEFAULT);

    /* 1. Discovery: the document's issuer must be exactly the one we know. */
    size_t base_len = strlen(issuer);
    while (base_len && issuer[base_len - 1] == '/') base_len--;
    char url[2048];
    snprintf(url, sizeof url, "%.*s/.well-known/openid-configuration", (int)base_len, issuer);
    json_t *config = get_json(url);
    if (!config) return 2;
    const char *served = json_string_value(json_object_get(config, "issuer"));
    const char *jwks_uri = json_string_value(json_object_get(config, "jwks_uri"));
    if (!served || strcmp(served, issuer) || !jwks_uri) {
        fprintf(stderr, "discovery issuer '%s' is not '%s' (or no jwks_uri)\n", served ? served : "", issuer);
        return 2;
    }
    json_t *jwks = get_json(jwks_uri);
    if (!jwks) return 2;

    /* 2. The protected header: alg (an asymmetric one libjwt knows) and kid. */
    const char *dot = strchr(token, '.');
    unsigned char *header_raw = NULL;
    long header_len = dot ? b64url_decode(token, (size_t)(dot - token), &header_raw) : -1;
    json_t *header = header_len > 0 ? json_loadb((char *)header_raw, (size_t)header_len, 0, NULL) : NULL;
    free(header_raw);
    const char *alg = json_string_value(json_object_get(header, "alg"));
    const char *kid = json_string_value(json_object_get(header, "kid"));
    if (!alg || !kid) { fprintf(stderr, "refused: no alg or kid in the header\n"); return 1; }
    if (strcmp(alg, "EdDSA") && strcmp(alg, "ES256") && strcmp(alg, "RS256")) {
        fprintf(stderr, "refused: alg %s is not accepted\n", alg); /* never HS* (the PEM as a secret) or none */
        return 1;
    }
    if (jwt_str_alg(alg) == JWT_ALG_INVAL) {
        fprintf(stderr, "unsupported algorithm: libjwt %s cannot verify %s\n", LIBJWT_VERSION, alg);
        return 3;
    }

    /* 3. The key the kid names, of the type alg needs, as PEM. */
    char *pem = NULL;
    size_t i;
    json_t *jwk;
    json_array_foreach(json_object_get(jwks, "keys"), i, jwk) {
        const char *key_kid = json_string_value(json_object_get(jwk, "kid"));
        const char *key_alg = json_string_value(json_object_get(jwk, "alg"));
        if (key_kid && !strcmp(key_kid, kid) && (!key_alg || !strcmp(key_alg, alg))) {
            pem = jwk_to_pem(jwk, alg);
            break;
        }
    }
    if (!pem) { fprintf(stderr, "refused: no usable %s key with kid %s in the JWKS\n", alg, kid); return 1; }

    /* 4. The signature (libjwt), then the claims (here). */
    jwt_t *jwt = NULL;
    int rc = jwt_decode(&jwt, token, (const unsigned char *)pem, (int)strlen(pem));
    free(pem);
    if (rc || !jwt || jwt_get_alg(jwt) != jwt_str_alg(alg)) {
        fprintf(stderr, "refused: signature does not verify (%s)\n", rc ? strerror(rc) : "algorithm changed");
        return 1;
    }
    char *grants = jwt_get_grants_json(jwt, NULL);
    json_t *claims = grants ? json_loads(grants, 0, NULL) : NULL;
    const char *iss = json_string_value(json_object_get(claims, "iss"));
    json_t *exp = json_object_get(claims, "exp"), *nbf = json_object_get(claims, "nbf");
    time_t now = time(NULL);
    const char *problem = NULL;
    if (!claims) problem = "no claims";
    else if (!iss || strcmp(iss, issuer)) problem = "iss is not the issuer";
    else if (!audience_matches(json_object_get(claims, "aud"), audience)) problem = "aud does not contain the audience";
    else if (!json_is_integer(exp) || json_integer_value(exp) <= now) problem = "exp missing or past";
    else if (nbf && (!json_is_integer(nbf) || json_integer_value(nbf) > now + 5)) problem = "not yet valid (nbf)";
    if (problem) { fprintf(stderr, "refused: %s\n", problem); return 1; }
    printf("%s\n", grants);
    free(grants);
    jwt_free(jwt);
    json_decref(claims);
    json_decref(header);
    json_decref(jwks);
    json_decref(config);
    curl_global_cleanup();
    return 0;
}
