#include <zlib.h>

/// deflateInit2/inflateInit2 are macros; these wrappers make them callable from Swift.
static inline int courier_deflate_init_gzip(z_streamp strm, int level) {
    return deflateInit2(strm, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
static inline int courier_inflate_init_auto(z_streamp strm) {
    return inflateInit2(strm, 15 + 32);
}
