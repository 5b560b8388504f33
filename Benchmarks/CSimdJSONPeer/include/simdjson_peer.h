#ifndef COURIER_SIMDJSON_PEER_H
#define COURIER_SIMDJSON_PEER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Parses a Segment batch body (`{"batch":[{…},…],…}`, `length` bytes) with simdjson's DOM
/// parser (structure and UTF-8 validated) and walks every message's members, reading each
/// string value, as a collector validating and copying messages would.
/// - Returns: the members walked, or -1 when the body is not such a document.
long simdjson_peer_walk_batch(const unsigned char *body, size_t length);

#ifdef __cplusplus
}
#endif

#endif
