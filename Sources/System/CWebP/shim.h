#ifndef COURIER_CWEBP_SHIM_H
#define COURIER_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#endif
