#ifndef COURIER_SIGNAL_PEER_INTERNAL_H
#define COURIER_SIGNAL_PEER_INTERNAL_H
#include <signal/signal_protocol.h>
#include <stdlib.h>

/* A tiny byte-string map: enough for the handful of records a test holds. */
typedef struct peer_map_entry {
    signal_buffer *key;
    signal_buffer *value;
    signal_buffer *user_value;
} peer_map_entry;

typedef struct peer_map {
    peer_map_entry *entries;
    size_t count;
    size_t capacity;
} peer_map;

peer_map_entry *peer_map_find(peer_map *map, const uint8_t *key, size_t key_len);
int peer_map_put(peer_map *map, const uint8_t *key, size_t key_len, const uint8_t *value, size_t value_len,
                 const uint8_t *user_value, size_t user_value_len);
void peer_map_remove(peer_map *map, const uint8_t *key, size_t key_len);
void peer_map_free(peer_map *map);

int peer_install_crypto_provider(signal_context *context);
#endif
