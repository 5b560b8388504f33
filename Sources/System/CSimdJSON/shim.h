#ifndef COURIER_CSIMDJSON_SHIM_H
#define COURIER_CSIMDJSON_SHIM_H

// simdjson is C++: `courier-bench json` reaches it through CSimdJSONPeer's extern "C" function,
// which includes this header. The module map only tells the build where the header and the
// library are.
#include <simdjson.h>

#endif
