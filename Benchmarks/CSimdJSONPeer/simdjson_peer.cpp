#include "simdjson_peer.h"

#include <simdjson.h>

// One parser per thread: simdjson reuses its buffers from one document to the next.
static thread_local simdjson::dom::parser parser;

long simdjson_peer_walk_batch(const unsigned char *body, size_t length) {
    simdjson::dom::element document;
    // The body has no padding after it: simdjson copies it into a padded buffer first, as a
    // server would have to for a body it did not read into one.
    if (parser.parse(reinterpret_cast<const char *>(body), length, true).get(document)) return -1;
    simdjson::dom::array batch;
    if (document["batch"].get_array().get(batch)) return -1;
    long members = 0;
    for (simdjson::dom::element message : batch) {
        simdjson::dom::object object;
        if (message.get_object().get(object)) return -1;
        for (simdjson::dom::key_value_pair field : object) {
            members += 1;
            std::string_view text;
            if (field.value.is_string() && !field.value.get_string().get(text)) members += text.empty() ? 0 : 1;
        }
    }
    return members;
}
