#ifndef COURIER_CPNG_SHIM_H
#define COURIER_CPNG_SHIM_H
#include <png.h>

/// PNG_FORMAT_RGBA and PNG_IMAGE_VERSION as constants (Swift does not import composed macros).
static const png_uint_32 courier_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 courier_png_image_version = PNG_IMAGE_VERSION;
#endif
