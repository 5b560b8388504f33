#ifndef COURIER_COPENSSL_SHIM_H
#define COURIER_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>

/// An HMAC-SHA256 context with its digest set, to be copied (EVP_MAC_CTX_dup) for each MAC, so
/// no call pays for looking the algorithms up by name. OSSL_PARAM arrays need C string lifetimes
/// that Swift cannot express, hence this helper. Returns NULL if OpenSSL lacks either algorithm.
static inline EVP_MAC_CTX *courier_hmac_sha256_template(void) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (ctx == NULL) return NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_CTX_set_params(ctx, params) != 1) {
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}
#endif
