#include "peer_internal.h"
#include <string.h>

peer_map_entry *peer_map_find(peer_map *map, const uint8_t *key, size_t key_len) {
    for (size_t i = 0; i < map->count; i++) {
        signal_buffer *candidate = map->entries[i].key;
        if (signal_buffer_len(candidate) == key_len && memcmp(signal_buffer_data(candidate), key, key_len) == 0) {
            return &map->entries[i];
        }
    }
    return NULL;
}

int peer_map_put(peer_map *map, const uint8_t *key, size_t key_len, const uint8_t *value, size_t value_len,
                 const uint8_t *user_value, size_t user_value_len) {
    signal_buffer *copy = signal_buffer_create(value, value_len);
    signal_buffer *user_copy = user_value ? signal_buffer_create(user_value, user_value_len) : NULL;
    if (!copy || (user_value && !user_copy)) goto nomem;
    peer_map_entry *entry = peer_map_find(map, key, key_len);
    if (entry) {
        signal_buffer_bzero_free(entry->value);
        if (entry->user_value) signal_buffer_free(entry->user_value);
        entry->value = copy;
        entry->user_value = user_copy;
        return 0;
    }
    if (map->count == map->capacity) {
        size_t capacity = map->capacity ? map->capacity * 2 : 8;
        peer_map_entry *grown = realloc(map->entries, capacity * sizeof *grown);
        if (!grown) goto nomem;
        map->entries = grown;
        map->capacity = capacity;
    }
    signal_buffer *key_copy = signal_buffer_create(key, key_len);
    if (!key_copy) goto nomem;
    map->entries[map->count++] = (peer_map_entry){key_copy, copy, user_copy};
    return 0;
nomem:
    if (copy) signal_buffer_bzero_free(copy);
    if (user_copy) signal_buffer_free(user_copy);
    return SG_ERR_NOMEM;
}

void peer_map_remove(peer_map *map, const uint8_t *key, size_t key_len) {
    peer_map_entry *entry = peer_map_find(map, key, key_len);
    if (!entry) return;
    signal_buffer_free(entry->key);
    signal_buffer_bzero_free(entry->value);
    if (entry->user_value) signal_buffer_free(entry->user_value);
    *entry = map->entries[--map->count];
}

void peer_map_free(peer_map *map) {
    while (map->count) peer_map_remove(map, signal_buffer_data(map->entries[0].key), signal_buffer_len(map->entries[0].key));
    free(map->entries);
    map->entries = NULL;
    map->capacity = 0;
}
