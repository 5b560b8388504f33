#ifndef COURIER_SIGNAL_PEER_H
#define COURIER_SIGNAL_PEER_H
/*
 * Test-only interop peer: libsignal-protocol-c with an OpenSSL crypto provider and in-memory
 * stores, behind a few plain functions that Swift tests can call. Byte arrays are caller-owned;
 * functions return 0 (or a length) on success and a negative libsignal error code on failure.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct signal_peer signal_peer;

signal_peer *signal_peer_create(void);
void signal_peer_free(signal_peer *peer);
uint32_t signal_peer_registration_id(const signal_peer *peer);
/* Writes the 33-byte serialized identity public key. */
int signal_peer_identity(signal_peer *peer, uint8_t identity[33]);

/* Generates and stores a signed prekey and, when pre_key_id != 0, a one-time prekey. */
int signal_peer_make_bundle(signal_peer *peer, uint32_t pre_key_id, uint32_t signed_pre_key_id,
                            uint8_t pre_key_public[33], uint8_t signed_pre_key_public[33],
                            uint8_t signature[64]);

/* Starts a session with name.device_id from a bundle; pre_key_id 0 means no one-time prekey. */
int signal_peer_process_bundle(signal_peer *peer, const char *name, int32_t device_id,
                               uint32_t registration_id, uint32_t pre_key_id, const uint8_t *pre_key_public,
                               uint32_t signed_pre_key_id, const uint8_t *signed_pre_key_public,
                               const uint8_t *signature, size_t signature_len, const uint8_t *identity);

/* Returns the ciphertext length; *type is 2 (SignalMessage) or 3 (PreKeySignalMessage). */
int signal_peer_encrypt(signal_peer *peer, const char *name, int32_t device_id, const uint8_t *plaintext,
                        size_t plaintext_len, uint8_t *out, size_t out_capacity, int *type);

/* Returns the plaintext length. */
int signal_peer_decrypt(signal_peer *peer, const char *name, int32_t device_id, int type,
                        const uint8_t *ciphertext, size_t ciphertext_len, uint8_t *out, size_t out_capacity);

/* Writes the 60-digit displayable safety number plus a terminating NUL. */
int signal_peer_fingerprint(signal_peer *peer, int iterations, const char *local_id, const uint8_t local_key[33],
                            const char *remote_id, const uint8_t remote_key[33], char out[61]);

/* Writes libsignal-protocol-c's serialized scannable fingerprint (CombinedFingerprints); returns its length. */
int signal_peer_scannable_fingerprint(signal_peer *peer, int iterations, int version, const char *local_id,
                                      const uint8_t local_key[33], const char *remote_id,
                                      const uint8_t remote_key[33], uint8_t *out, size_t out_capacity);

/* Compares two serialized scannable fingerprints: 1 match, 0 mismatch, SG_ERR_FP_VERSION_MISMATCH, or an error. */
int signal_peer_scannable_compare(signal_peer *peer, const uint8_t *ours, size_t ours_len, const uint8_t *scanned,
                                  size_t scanned_len);

/* Sender keys: creates our sender key for group_id and returns the distribution message length. */
int signal_peer_group_create(signal_peer *peer, const char *group_id, const char *self_name, int32_t self_device,
                             uint8_t *out, size_t out_capacity);
int signal_peer_group_process(signal_peer *peer, const char *group_id, const char *sender_name,
                              int32_t sender_device, const uint8_t *distribution, size_t distribution_len);
int signal_peer_group_encrypt(signal_peer *peer, const char *group_id, const char *self_name, int32_t self_device,
                              const uint8_t *plaintext, size_t plaintext_len, uint8_t *out, size_t out_capacity);
int signal_peer_group_decrypt(signal_peer *peer, const char *group_id, const char *sender_name,
                              int32_t sender_device, const uint8_t *ciphertext, size_t ciphertext_len, uint8_t *out,
                              size_t out_capacity);
#endif
