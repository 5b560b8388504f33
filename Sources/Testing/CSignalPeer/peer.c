/* Recursive mutexes are an XSI extension. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "signal_peer.h"
#include "peer_internal.h"

#include <signal/curve.h>
#include <signal/fingerprint.h>
#include <signal/group_cipher.h>
#include <signal/group_session_builder.h>
#include <signal/key_helper.h>
#include <signal/protocol.h>
#include <signal/ratchet.h>
#include <signal/session_builder.h>
#include <signal/session_cipher.h>
#include <signal/session_pre_key.h>
#include <pthread.h>
#include <string.h>

struct signal_peer {
    signal_context *context;
    signal_protocol_store_context *stores;
    pthread_mutex_t lock;
    ratchet_identity_key_pair *identity;
    uint32_t registration_id;
    peer_map sessions, pre_keys, signed_pre_keys, identities, sender_keys;
};

/* Map keys: "name\0" followed by the 4 device-id bytes (and a group id for sender keys). */
static size_t address_key(uint8_t *out, size_t capacity, const char *group, size_t group_len,
                          const signal_protocol_address *address) {
    size_t needed = group_len + 1 + address->name_len + 1 + sizeof address->device_id;
    if (needed > capacity) return 0;
    size_t offset = 0;
    if (group_len) memcpy(out, group, group_len);
    offset += group_len;
    out[offset++] = 0;
    memcpy(out + offset, address->name, address->name_len);
    offset += address->name_len;
    out[offset++] = 0;
    memcpy(out + offset, &address->device_id, sizeof address->device_id);
    return needed;
}

/* The entry stored under `address` (within `group`, for sender keys), or NULL. */
static peer_map_entry *find_address(peer_map *map, const char *group, size_t group_len,
                                    const signal_protocol_address *address) {
    uint8_t key[1024];
    size_t len = address_key(key, sizeof key, group, group_len, address);
    return len ? peer_map_find(map, key, len) : NULL;
}

/* What libsignal's load callbacks return: 1 with copies of the stored record, or 0 without one. */
static int load_entry(const peer_map_entry *entry, signal_buffer **record, signal_buffer **user_record) {
    if (!entry) return 0;
    *record = signal_buffer_copy(entry->value);
    if (entry->user_value) *user_record = signal_buffer_copy(entry->user_value);
    return 1;
}

static void peer_lock(void *user_data) { pthread_mutex_lock(&((signal_peer *)user_data)->lock); }
static void peer_unlock(void *user_data) { pthread_mutex_unlock(&((signal_peer *)user_data)->lock); }

/* Session store. */
static int load_session(signal_buffer **record, signal_buffer **user_record, const signal_protocol_address *address,
                        void *user_data) {
    signal_peer *peer = user_data;
    return load_entry(find_address(&peer->sessions, NULL, 0, address), record, user_record);
}
static int get_sub_device_sessions(signal_int_list **sessions, const char *name, size_t name_len, void *user_data) {
    (void)name; (void)name_len; (void)user_data;
    *sessions = signal_int_list_alloc();
    return *sessions ? 0 : SG_ERR_NOMEM;
}
static int store_session(const signal_protocol_address *address, uint8_t *record, size_t record_len,
                         uint8_t *user_record, size_t user_record_len, void *user_data) {
    signal_peer *peer = user_data;
    uint8_t key[512];
    size_t len = address_key(key, sizeof key, NULL, 0, address);
    if (!len) return SG_ERR_INVAL;
    return peer_map_put(&peer->sessions, key, len, record, record_len, user_record, user_record_len);
}
static int contains_session(const signal_protocol_address *address, void *user_data) {
    signal_peer *peer = user_data;
    return find_address(&peer->sessions, NULL, 0, address) ? 1 : 0;
}
static int delete_session(const signal_protocol_address *address, void *user_data) {
    signal_peer *peer = user_data;
    uint8_t key[512];
    size_t len = address_key(key, sizeof key, NULL, 0, address);
    if (len) peer_map_remove(&peer->sessions, key, len);
    return 1;
}
static int delete_all_sessions(const char *name, size_t name_len, void *user_data) {
    (void)name; (void)name_len; (void)user_data;
    return 0;
}

/* Prekey and signed prekey stores, keyed by the 4 id bytes. */
static int load_from(peer_map *map, signal_buffer **record, uint32_t id) {
    peer_map_entry *entry = peer_map_find(map, (const uint8_t *)&id, sizeof id);
    if (!entry) return SG_ERR_INVALID_KEY_ID;
    *record = signal_buffer_copy(entry->value);
    return *record ? SG_SUCCESS : SG_ERR_NOMEM;
}
static int load_pre_key(signal_buffer **record, uint32_t id, void *user_data) {
    return load_from(&((signal_peer *)user_data)->pre_keys, record, id);
}
static int store_pre_key(uint32_t id, uint8_t *record, size_t len, void *user_data) {
    return peer_map_put(&((signal_peer *)user_data)->pre_keys, (const uint8_t *)&id, sizeof id, record, len, NULL, 0);
}
static int contains_pre_key(uint32_t id, void *user_data) {
    return peer_map_find(&((signal_peer *)user_data)->pre_keys, (const uint8_t *)&id, sizeof id) ? 1 : 0;
}
static int remove_pre_key(uint32_t id, void *user_data) {
    peer_map_remove(&((signal_peer *)user_data)->pre_keys, (const uint8_t *)&id, sizeof id);
    return 0;
}
static int load_signed_pre_key(signal_buffer **record, uint32_t id, void *user_data) {
    return load_from(&((signal_peer *)user_data)->signed_pre_keys, record, id);
}
static int store_signed_pre_key(uint32_t id, uint8_t *record, size_t len, void *user_data) {
    return peer_map_put(&((signal_peer *)user_data)->signed_pre_keys, (const uint8_t *)&id, sizeof id, record, len,
                        NULL, 0);
}
static int contains_signed_pre_key(uint32_t id, void *user_data) {
    return peer_map_find(&((signal_peer *)user_data)->signed_pre_keys, (const uint8_t *)&id, sizeof id) ? 1 : 0;
}
static int remove_signed_pre_key(uint32_t id, void *user_data) {
    peer_map_remove(&((signal_peer *)user_data)->signed_pre_keys, (const uint8_t *)&id, sizeof id);
    return 0;
}

/* Identity store: trust on first use, like libsignal's convention. */
static int get_identity_key_pair(signal_buffer **public_data, signal_buffer **private_data, void *user_data) {
    signal_peer *peer = user_data;
    int result = ec_public_key_serialize(public_data, ratchet_identity_key_pair_get_public(peer->identity));
    if (result < 0) return result;
    return ec_private_key_serialize(private_data, ratchet_identity_key_pair_get_private(peer->identity));
}
static int get_local_registration_id(void *user_data, uint32_t *registration_id) {
    *registration_id = ((signal_peer *)user_data)->registration_id;
    return 0;
}
static int save_identity(const signal_protocol_address *address, uint8_t *key_data, size_t key_len, void *user_data) {
    signal_peer *peer = user_data;
    uint8_t key[512];
    size_t len = address_key(key, sizeof key, NULL, 0, address);
    if (!len) return SG_ERR_INVAL;
    if (!key_data) {
        peer_map_remove(&peer->identities, key, len);
        return 0;
    }
    return peer_map_put(&peer->identities, key, len, key_data, key_len, NULL, 0);
}
static int is_trusted_identity(const signal_protocol_address *address, uint8_t *key_data, size_t key_len,
                               void *user_data) {
    signal_peer *peer = user_data;
    peer_map_entry *entry = find_address(&peer->identities, NULL, 0, address);
    if (!entry) return 1;
    return signal_buffer_len(entry->value) == key_len && memcmp(signal_buffer_data(entry->value), key_data, key_len) == 0;
}

/* Sender key store. */
static int store_sender_key(const signal_protocol_sender_key_name *name, uint8_t *record, size_t record_len,
                            uint8_t *user_record, size_t user_record_len, void *user_data) {
    signal_peer *peer = user_data;
    uint8_t key[1024];
    size_t len = address_key(key, sizeof key, name->group_id, name->group_id_len, &name->sender);
    if (!len) return SG_ERR_INVAL;
    return peer_map_put(&peer->sender_keys, key, len, record, record_len, user_record, user_record_len);
}
static int load_sender_key(signal_buffer **record, signal_buffer **user_record,
                           const signal_protocol_sender_key_name *name, void *user_data) {
    signal_peer *peer = user_data;
    return load_entry(find_address(&peer->sender_keys, name->group_id, name->group_id_len, &name->sender), record,
                      user_record);
}

signal_peer *signal_peer_create(void) {
    signal_peer *peer = calloc(1, sizeof *peer);
    if (!peer) return NULL;
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&peer->lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
    if (signal_context_create(&peer->context, peer) < 0) goto fail;
    if (peer_install_crypto_provider(peer->context) < 0) goto fail;
    if (signal_context_set_locking_functions(peer->context, peer_lock, peer_unlock) < 0) goto fail;
    if (signal_protocol_key_helper_generate_identity_key_pair(&peer->identity, peer->context) < 0) goto fail;
    if (signal_protocol_key_helper_generate_registration_id(&peer->registration_id, 0, peer->context) < 0) goto fail;
    if (signal_protocol_store_context_create(&peer->stores, peer->context) < 0) goto fail;
    signal_protocol_session_store sessions = {
        load_session, get_sub_device_sessions, store_session, contains_session, delete_session,
        delete_all_sessions, NULL, peer};
    signal_protocol_pre_key_store pre_keys = {
        load_pre_key, store_pre_key, contains_pre_key, remove_pre_key, NULL, peer};
    signal_protocol_signed_pre_key_store signed_pre_keys = {
        load_signed_pre_key, store_signed_pre_key, contains_signed_pre_key, remove_signed_pre_key, NULL, peer};
    signal_protocol_identity_key_store identities = {
        get_identity_key_pair, get_local_registration_id, save_identity, is_trusted_identity, NULL, peer};
    signal_protocol_sender_key_store sender_keys = {store_sender_key, load_sender_key, NULL, peer};
    signal_protocol_store_context_set_session_store(peer->stores, &sessions);
    signal_protocol_store_context_set_pre_key_store(peer->stores, &pre_keys);
    signal_protocol_store_context_set_signed_pre_key_store(peer->stores, &signed_pre_keys);
    signal_protocol_store_context_set_identity_key_store(peer->stores, &identities);
    signal_protocol_store_context_set_sender_key_store(peer->stores, &sender_keys);
    return peer;
fail:
    signal_peer_free(peer);
    return NULL;
}

void signal_peer_free(signal_peer *peer) {
    if (!peer) return;
    if (peer->stores) signal_protocol_store_context_destroy(peer->stores);
    if (peer->identity) SIGNAL_UNREF(peer->identity);
    if (peer->context) signal_context_destroy(peer->context);
    peer_map_free(&peer->sessions);
    peer_map_free(&peer->pre_keys);
    peer_map_free(&peer->signed_pre_keys);
    peer_map_free(&peer->identities);
    peer_map_free(&peer->sender_keys);
    pthread_mutex_destroy(&peer->lock);
    free(peer);
}

uint32_t signal_peer_registration_id(const signal_peer *peer) { return peer->registration_id; }

static int copy_key(const ec_public_key *key, uint8_t out[33]) {
    signal_buffer *buffer = NULL;
    int result = ec_public_key_serialize(&buffer, key);
    if (result < 0) return result;
    if (signal_buffer_len(buffer) != 33) result = SG_ERR_INVALID_KEY;
    else memcpy(out, signal_buffer_data(buffer), 33);
    signal_buffer_free(buffer);
    return result < 0 ? result : 0;
}

int signal_peer_identity(signal_peer *peer, uint8_t identity[33]) {
    return copy_key(ratchet_identity_key_pair_get_public(peer->identity), identity);
}

int signal_peer_make_bundle(signal_peer *peer, uint32_t pre_key_id, uint32_t signed_pre_key_id,
                            uint8_t pre_key_public[33], uint8_t signed_pre_key_public[33], uint8_t signature[64]) {
    session_signed_pre_key *signed_pre_key = NULL;
    int result = signal_protocol_key_helper_generate_signed_pre_key(&signed_pre_key, peer->identity, signed_pre_key_id,
                                                                    1700000000000ULL, peer->context);
    if (result < 0) return result;
    result = signal_protocol_signed_pre_key_store_key(peer->stores, signed_pre_key);
    if (result >= 0) result = copy_key(ec_key_pair_get_public(session_signed_pre_key_get_key_pair(signed_pre_key)),
                                       signed_pre_key_public);
    if (result >= 0) {
        if (session_signed_pre_key_get_signature_len(signed_pre_key) != 64) result = SG_ERR_INVALID_KEY;
        else memcpy(signature, session_signed_pre_key_get_signature(signed_pre_key), 64);
    }
    SIGNAL_UNREF(signed_pre_key);
    if (result < 0 || pre_key_id == 0) return result < 0 ? result : 0;
    ec_key_pair *pair = NULL;
    session_pre_key *pre_key = NULL;
    result = curve_generate_key_pair(peer->context, &pair);
    if (result >= 0) result = session_pre_key_create(&pre_key, pre_key_id, pair);
    if (result >= 0) result = signal_protocol_pre_key_store_key(peer->stores, pre_key);
    if (result >= 0) result = copy_key(ec_key_pair_get_public(pair), pre_key_public);
    if (pre_key) SIGNAL_UNREF(pre_key);
    if (pair) SIGNAL_UNREF(pair);
    return result < 0 ? result : 0;
}

int signal_peer_process_bundle(signal_peer *peer, const char *name, int32_t device_id, uint32_t registration_id,
                               uint32_t pre_key_id, const uint8_t *pre_key_public, uint32_t signed_pre_key_id,
                               const uint8_t *signed_pre_key_public, const uint8_t *signature, size_t signature_len,
                               const uint8_t *identity) {
    signal_protocol_address address = {name, strlen(name), device_id};
    ec_public_key *pre_key = NULL, *signed_pre_key = NULL, *identity_key = NULL;
    session_pre_key_bundle *bundle = NULL;
    session_builder *builder = NULL;
    int result = 0;
    if (pre_key_id) result = curve_decode_point(&pre_key, pre_key_public, 33, peer->context);
    if (result >= 0) result = curve_decode_point(&signed_pre_key, signed_pre_key_public, 33, peer->context);
    if (result >= 0) result = curve_decode_point(&identity_key, identity, 33, peer->context);
    if (result >= 0)
        result = session_pre_key_bundle_create(&bundle, registration_id, device_id, pre_key_id, pre_key,
                                               signed_pre_key_id, signed_pre_key, signature, signature_len,
                                               identity_key);
    if (result >= 0) result = session_builder_create(&builder, peer->stores, &address, peer->context);
    if (result >= 0) result = session_builder_process_pre_key_bundle(builder, bundle);
    if (builder) session_builder_free(builder);
    if (bundle) SIGNAL_UNREF(bundle);
    if (pre_key) SIGNAL_UNREF(pre_key);
    if (signed_pre_key) SIGNAL_UNREF(signed_pre_key);
    if (identity_key) SIGNAL_UNREF(identity_key);
    return result < 0 ? result : 0;
}

static int copy_out(signal_buffer *buffer, uint8_t *out, size_t capacity) {
    size_t len = signal_buffer_len(buffer);
    if (len > capacity || len > INT32_MAX) return SG_ERR_NOMEM;
    memcpy(out, signal_buffer_data(buffer), len);
    return (int)len;
}

int signal_peer_encrypt(signal_peer *peer, const char *name, int32_t device_id, const uint8_t *plaintext,
                        size_t plaintext_len, uint8_t *out, size_t out_capacity, int *type) {
    signal_protocol_address address = {name, strlen(name), device_id};
    session_cipher *cipher = NULL;
    ciphertext_message *message = NULL;
    int result = session_cipher_create(&cipher, peer->stores, &address, peer->context);
    if (result >= 0) result = session_cipher_encrypt(cipher, plaintext, plaintext_len, &message);
    if (result >= 0) {
        *type = ciphertext_message_get_type(message);
        result = copy_out(ciphertext_message_get_serialized(message), out, out_capacity);
    }
    if (message) SIGNAL_UNREF(message);
    if (cipher) session_cipher_free(cipher);
    return result;
}

int signal_peer_decrypt(signal_peer *peer, const char *name, int32_t device_id, int type, const uint8_t *ciphertext,
                        size_t ciphertext_len, uint8_t *out, size_t out_capacity) {
    signal_protocol_address address = {name, strlen(name), device_id};
    session_cipher *cipher = NULL;
    signal_buffer *plaintext = NULL;
    int result = session_cipher_create(&cipher, peer->stores, &address, peer->context);
    if (result >= 0 && type == CIPHERTEXT_PREKEY_TYPE) {
        pre_key_signal_message *message = NULL;
        result = pre_key_signal_message_deserialize(&message, ciphertext, ciphertext_len, peer->context);
        if (result >= 0) result = session_cipher_decrypt_pre_key_signal_message(cipher, message, NULL, &plaintext);
        if (message) SIGNAL_UNREF(message);
    } else if (result >= 0 && type == CIPHERTEXT_SIGNAL_TYPE) {
        signal_message *message = NULL;
        result = signal_message_deserialize(&message, ciphertext, ciphertext_len, peer->context);
        if (result >= 0) result = session_cipher_decrypt_signal_message(cipher, message, NULL, &plaintext);
        if (message) SIGNAL_UNREF(message);
    } else if (result >= 0) {
        result = SG_ERR_INVALID_MESSAGE;
    }
    if (result >= 0) result = copy_out(plaintext, out, out_capacity);
    if (plaintext) signal_buffer_bzero_free(plaintext);
    if (cipher) session_cipher_free(cipher);
    return result;
}

int signal_peer_fingerprint(signal_peer *peer, int iterations, const char *local_id, const uint8_t local_key[33],
                            const char *remote_id, const uint8_t remote_key[33], char out[61]) {
    ec_public_key *local = NULL, *remote = NULL;
    fingerprint_generator *generator = NULL;
    fingerprint *value = NULL;
    int result = curve_decode_point(&local, local_key, 33, peer->context);
    if (result >= 0) result = curve_decode_point(&remote, remote_key, 33, peer->context);
    if (result >= 0) result = fingerprint_generator_create(&generator, iterations, 1, peer->context);
    if (result >= 0) result = fingerprint_generator_create_for(generator, local_id, local, remote_id, remote, &value);
    if (result >= 0) {
        const char *text = displayable_fingerprint_text(fingerprint_get_displayable(value));
        if (!text || strlen(text) != 60) result = SG_ERR_UNKNOWN;
        else memcpy(out, text, 61);
    }
    if (value) SIGNAL_UNREF(value);
    if (generator) fingerprint_generator_free(generator);
    if (local) SIGNAL_UNREF(local);
    if (remote) SIGNAL_UNREF(remote);
    return result < 0 ? result : 0;
}

int signal_peer_scannable_fingerprint(signal_peer *peer, int iterations, int version, const char *local_id,
                                      const uint8_t local_key[33], const char *remote_id,
                                      const uint8_t remote_key[33], uint8_t *out, size_t out_capacity) {
    ec_public_key *local = NULL, *remote = NULL;
    fingerprint_generator *generator = NULL;
    fingerprint *value = NULL;
    signal_buffer *serialized = NULL;
    int result = curve_decode_point(&local, local_key, 33, peer->context);
    if (result >= 0) result = curve_decode_point(&remote, remote_key, 33, peer->context);
    if (result >= 0) result = fingerprint_generator_create(&generator, iterations, version, peer->context);
    if (result >= 0) result = fingerprint_generator_create_for(generator, local_id, local, remote_id, remote, &value);
    if (result >= 0) result = scannable_fingerprint_serialize(&serialized, fingerprint_get_scannable(value));
    if (result >= 0) result = copy_out(serialized, out, out_capacity);
    if (serialized) signal_buffer_free(serialized);
    if (value) SIGNAL_UNREF(value);
    if (generator) fingerprint_generator_free(generator);
    if (local) SIGNAL_UNREF(local);
    if (remote) SIGNAL_UNREF(remote);
    return result;
}

int signal_peer_scannable_compare(signal_peer *peer, const uint8_t *ours, size_t ours_len, const uint8_t *scanned,
                                  size_t scanned_len) {
    scannable_fingerprint *mine = NULL, *theirs = NULL;
    int result = scannable_fingerprint_deserialize(&mine, ours, ours_len, peer->context);
    if (result >= 0) result = scannable_fingerprint_deserialize(&theirs, scanned, scanned_len, peer->context);
    if (result >= 0) result = scannable_fingerprint_compare(mine, theirs);
    if (mine) SIGNAL_UNREF(mine);
    if (theirs) SIGNAL_UNREF(theirs);
    return result;
}

static signal_protocol_sender_key_name sender_key_name(const char *group_id, const char *name, int32_t device) {
    signal_protocol_sender_key_name key = {group_id, strlen(group_id), {name, strlen(name), device}};
    return key;
}

int signal_peer_group_create(signal_peer *peer, const char *group_id, const char *self_name, int32_t self_device,
                             uint8_t *out, size_t out_capacity) {
    signal_protocol_sender_key_name key = sender_key_name(group_id, self_name, self_device);
    group_session_builder *builder = NULL;
    sender_key_distribution_message *message = NULL;
    int result = group_session_builder_create(&builder, peer->stores, peer->context);
    if (result >= 0) result = group_session_builder_create_session(builder, &message, &key);
    if (result >= 0)
        result = copy_out(ciphertext_message_get_serialized((ciphertext_message *)message), out, out_capacity);
    if (message) SIGNAL_UNREF(message);
    if (builder) group_session_builder_free(builder);
    return result;
}

int signal_peer_group_process(signal_peer *peer, const char *group_id, const char *sender_name, int32_t sender_device,
                              const uint8_t *distribution, size_t distribution_len) {
    signal_protocol_sender_key_name key = sender_key_name(group_id, sender_name, sender_device);
    group_session_builder *builder = NULL;
    sender_key_distribution_message *message = NULL;
    int result = sender_key_distribution_message_deserialize(&message, distribution, distribution_len, peer->context);
    if (result >= 0) result = group_session_builder_create(&builder, peer->stores, peer->context);
    if (result >= 0) result = group_session_builder_process_session(builder, &key, message);
    if (message) SIGNAL_UNREF(message);
    if (builder) group_session_builder_free(builder);
    return result < 0 ? result : 0;
}

int signal_peer_group_encrypt(signal_peer *peer, const char *group_id, const char *self_name, int32_t self_device,
                              const uint8_t *plaintext, size_t plaintext_len, uint8_t *out, size_t out_capacity) {
    signal_protocol_sender_key_name key = sender_key_name(group_id, self_name, self_device);
    group_cipher *cipher = NULL;
    ciphertext_message *message = NULL;
    int result = group_cipher_create(&cipher, peer->stores, &key, peer->context);
    if (result >= 0) result = group_cipher_encrypt(cipher, plaintext, plaintext_len, &message);
    if (result >= 0) result = copy_out(ciphertext_message_get_serialized(message), out, out_capacity);
    if (message) SIGNAL_UNREF(message);
    if (cipher) group_cipher_free(cipher);
    return result;
}

int signal_peer_group_decrypt(signal_peer *peer, const char *group_id, const char *sender_name, int32_t sender_device,
                              const uint8_t *ciphertext, size_t ciphertext_len, uint8_t *out, size_t out_capacity) {
    signal_protocol_sender_key_name key = sender_key_name(group_id, sender_name, sender_device);
    group_cipher *cipher = NULL;
    sender_key_message *message = NULL;
    signal_buffer *plaintext = NULL;
    int result = sender_key_message_deserialize(&message, ciphertext, ciphertext_len, peer->context);
    if (result >= 0) result = group_cipher_create(&cipher, peer->stores, &key, peer->context);
    if (result >= 0) result = group_cipher_decrypt(cipher, message, NULL, &plaintext);
    if (result >= 0) result = copy_out(plaintext, out, out_capacity);
    if (plaintext) signal_buffer_bzero_free(plaintext);
    if (message) SIGNAL_UNREF(message);
    if (cipher) group_cipher_free(cipher);
    return result;
}
