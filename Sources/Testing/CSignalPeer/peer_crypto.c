/* The libsignal-protocol-c crypto provider on OpenSSL 3 (EVP only, no deprecated calls). */
#include "peer_internal.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <string.h>

static int peer_random(uint8_t *data, size_t len, void *user_data) {
    (void)user_data;
    return RAND_bytes(data, (int)len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int peer_hmac_init(void **context, const uint8_t *key, size_t key_len, void *user_data) {
    (void)user_data;
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (!mac) return SG_ERR_UNKNOWN;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (!ctx) return SG_ERR_NOMEM;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
                           OSSL_PARAM_construct_end()};
    static const uint8_t empty = 0;
    if (EVP_MAC_init(ctx, key_len ? key : &empty, key_len, params) != 1) {
        EVP_MAC_CTX_free(ctx);
        return SG_ERR_UNKNOWN;
    }
    *context = ctx;
    return 0;
}

static int peer_hmac_update(void *context, const uint8_t *data, size_t len, void *user_data) {
    (void)user_data;
    return EVP_MAC_update(context, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int peer_hmac_final(void *context, signal_buffer **output, void *user_data) {
    (void)user_data;
    uint8_t md[EVP_MAX_MD_SIZE];
    size_t len = 0;
    if (EVP_MAC_final(context, md, &len, sizeof md) != 1) return SG_ERR_UNKNOWN;
    *output = signal_buffer_create(md, len);
    return *output ? 0 : SG_ERR_NOMEM;
}

static void peer_hmac_cleanup(void *context, void *user_data) {
    (void)user_data;
    EVP_MAC_CTX_free(context);
}

static int peer_sha512_init(void **context, void *user_data) {
    (void)user_data;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) return SG_ERR_NOMEM;
    if (EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return SG_ERR_UNKNOWN;
    }
    *context = ctx;
    return 0;
}

static int peer_sha512_update(void *context, const uint8_t *data, size_t len, void *user_data) {
    (void)user_data;
    return EVP_DigestUpdate(context, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int peer_sha512_final(void *context, signal_buffer **output, void *user_data) {
    (void)user_data;
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(context, md, &len) != 1) return SG_ERR_UNKNOWN;
    /* libsignal reuses the context after final, so it must be ready for the next digest. */
    if (EVP_DigestInit_ex(context, EVP_sha512(), NULL) != 1) return SG_ERR_UNKNOWN;
    *output = signal_buffer_create(md, len);
    return *output ? 0 : SG_ERR_NOMEM;
}

static void peer_sha512_cleanup(void *context, void *user_data) {
    (void)user_data;
    EVP_MD_CTX_free(context);
}

static const EVP_CIPHER *peer_cipher(int cipher, size_t key_len) {
    if (cipher == SG_CIPHER_AES_CBC_PKCS5) {
        switch (key_len) {
        case 16: return EVP_aes_128_cbc();
        case 24: return EVP_aes_192_cbc();
        case 32: return EVP_aes_256_cbc();
        }
    } else if (cipher == SG_CIPHER_AES_CTR_NOPADDING) {
        switch (key_len) {
        case 16: return EVP_aes_128_ctr();
        case 24: return EVP_aes_192_ctr();
        case 32: return EVP_aes_256_ctr();
        }
    }
    return NULL;
}

static int peer_crypt(int encrypt, signal_buffer **output, int cipher, const uint8_t *key, size_t key_len,
                      const uint8_t *iv, size_t iv_len, const uint8_t *input, size_t input_len) {
    const EVP_CIPHER *evp = peer_cipher(cipher, key_len);
    if (!evp || iv_len != 16 || input_len > (size_t)INT32_MAX - 32) return SG_ERR_INVAL;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx) return SG_ERR_NOMEM;
    uint8_t *out = malloc(input_len + 32);
    int result = SG_ERR_UNKNOWN, len = 0, final_len = 0;
    if (!out) {
        result = SG_ERR_NOMEM;
        goto done;
    }
    if (EVP_CipherInit_ex(ctx, evp, NULL, key, iv, encrypt) != 1) goto done;
    if (EVP_CipherUpdate(ctx, out, &len, input, (int)input_len) != 1) goto done;
    if (EVP_CipherFinal_ex(ctx, out + len, &final_len) != 1) goto done;
    *output = signal_buffer_create(out, (size_t)(len + final_len));
    result = *output ? 0 : SG_ERR_NOMEM;
done:
    free(out);
    EVP_CIPHER_CTX_free(ctx);
    return result;
}

static int peer_encrypt(signal_buffer **output, int cipher, const uint8_t *key, size_t key_len, const uint8_t *iv,
                        size_t iv_len, const uint8_t *plaintext, size_t plaintext_len, void *user_data) {
    (void)user_data;
    return peer_crypt(1, output, cipher, key, key_len, iv, iv_len, plaintext, plaintext_len);
}

static int peer_decrypt(signal_buffer **output, int cipher, const uint8_t *key, size_t key_len, const uint8_t *iv,
                        size_t iv_len, const uint8_t *ciphertext, size_t ciphertext_len, void *user_data) {
    (void)user_data;
    return peer_crypt(0, output, cipher, key, key_len, iv, iv_len, ciphertext, ciphertext_len);
}

int peer_install_crypto_provider(signal_context *context) {
    signal_crypto_provider provider = {
        .random_func = peer_random,
        .hmac_sha256_init_func = peer_hmac_init,
        .hmac_sha256_update_func = peer_hmac_update,
        .hmac_sha256_final_func = peer_hmac_final,
        .hmac_sha256_cleanup_func = peer_hmac_cleanup,
        .sha512_digest_init_func = peer_sha512_init,
        .sha512_digest_update_func = peer_sha512_update,
        .sha512_digest_final_func = peer_sha512_final,
        .sha512_digest_cleanup_func = peer_sha512_cleanup,
        .encrypt_func = peer_encrypt,
        .decrypt_func = peer_decrypt,
        .user_data = NULL,
    };
    return signal_context_set_crypto_provider(context, &provider);
}
