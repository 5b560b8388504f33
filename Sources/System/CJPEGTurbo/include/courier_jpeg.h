#ifndef COURIER_JPEG_H
#define COURIER_JPEG_H

#include <stddef.h>
#include <stdint.h>

/// libjpeg reports errors by calling `error_exit`, which must not return: the only safe way back
/// is longjmp to a setjmp in the caller's C frame, which Swift cannot express. These functions
/// hold that setjmp and turn libjpeg's errors into return codes.

/// Result codes.
enum {
    COURIER_JPEG_OK = 0,
    /// libjpeg refused the data (not a JPEG, corrupt, unsupported); the message says why.
    COURIER_JPEG_CORRUPT = 1,
    /// The data ended early or libjpeg warned about damaged data while decoding.
    COURIER_JPEG_TRUNCATED = 2,
    /// Out of memory or an invalid argument.
    COURIER_JPEG_FAILED = 3,
};

/// A decompressor over one in-memory JPEG; the data must outlive it.
typedef struct courier_jpeg_decoder courier_jpeg_decoder;

/// Reads the header of `data`. Returns the decoder, or NULL with `code` and `message` set.
courier_jpeg_decoder *courier_jpeg_open(const uint8_t *data, size_t size, int *code, char *message,
                                        size_t message_size);

/// The image's full size, from its header.
void courier_jpeg_size(const courier_jpeg_decoder *decoder, int *width, int *height);

/// Chooses DCT-domain scaling by `scale_num`/8 (1…8) and reports the size the decode will produce.
void courier_jpeg_set_scale(courier_jpeg_decoder *decoder, int scale_num, int *width, int *height);

/// Decodes into `pixels` (RGBA, `stride` bytes per row, at the size `set_scale` reported) one
/// scanline at a time, so no buffer of the full-size image exists. Returns a code; on error
/// `message` says why.
int courier_jpeg_decode(courier_jpeg_decoder *decoder, uint8_t *pixels, size_t stride, char *message,
                        size_t message_size);

/// Frees the decoder.
void courier_jpeg_close(courier_jpeg_decoder *decoder);

/// Encodes RGBA `pixels` (`stride` bytes per row) at `quality` (1…100). On success `*output`
/// holds `*output_size` bytes to free with `courier_jpeg_free`.
int courier_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int quality,
                        uint8_t **output, unsigned long *output_size, char *message, size_t message_size);

/// Frees what `courier_jpeg_encode` returned.
void courier_jpeg_free(uint8_t *output);

#endif
