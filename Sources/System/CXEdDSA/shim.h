#ifndef COURIER_CXEDDSA_SHIM_H
#define COURIER_CXEDDSA_SHIM_H
/*
 * Debian's xeddsa.h includes <cross_platform.h>, which libxeddsa-dev does not ship,
 * so the few functions Courier calls are declared here from the header text and `nm -D`.
 */
#include <stdbool.h>
#include <stdint.h>

/* sig(64) out, Ed25519 private scalar(32), message, message length, nonce(64). */
extern void ed25519_priv_sign(uint8_t *sig, const uint8_t *priv, const uint8_t *msg, const uint32_t msg_len,
                              const uint8_t *nonce);
/* 0 when the signature is valid. */
extern int ed25519_verify(const uint8_t *sig, const uint8_t *ed_pub, const uint8_t *msg, const uint32_t msg_len);
/* Edwards public key from a Montgomery u-coordinate with the given sign bit. */
extern void curve25519_pub_to_ed25519_pub(uint8_t *ed_pub, const uint8_t *curve_pub, const bool sign_bit);
/* Negates the Curve25519 scalar if needed so its Edwards public key has the given sign bit. */
extern void priv_force_sign(uint8_t *priv_out, const uint8_t *priv, const bool sign_bit);
extern void priv_to_curve25519_pub(uint8_t *curve_pub, const uint8_t *priv);
extern int xeddsa_init(void);
#endif
