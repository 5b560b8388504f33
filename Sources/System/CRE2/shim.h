#ifndef COURIER_CRE2_SHIM_H
#define COURIER_CRE2_SHIM_H

// RE2 is C++: Swift reaches it through CRE2Shim's extern "C" functions, which include this
// header. The module map only tells the build where the headers and the library are.
#include <re2/re2.h>

#endif
