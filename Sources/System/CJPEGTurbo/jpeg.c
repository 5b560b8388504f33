#include "courier_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

struct courier_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

struct courier_jpeg_decoder {
    struct jpeg_decompress_struct info;
    struct courier_jpeg_error error;
};

static void courier_jpeg_error_exit(j_common_ptr info) {
    struct courier_jpeg_error *error = (struct courier_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

/// Warnings (premature end of data, corrupt entropy data) are counted, not printed: the decode
/// fails afterwards when any was seen, so damaged images are refused rather than shown grey.
static void courier_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) {
        struct courier_jpeg_error *error = (struct courier_jpeg_error *)info->err;
        if (info->err->num_warnings == 0) (*info->err->format_message)(info, error->message);
        info->err->num_warnings++;
    }
}

static void courier_jpeg_copy(char *target, size_t size, const char *text) {
    if (target == NULL || size == 0) return;
    snprintf(target, size, "%s", text);
}

static void courier_jpeg_install_errors(struct courier_jpeg_error *error) {
    jpeg_std_error(&error->manager);
    error->manager.error_exit = courier_jpeg_error_exit;
    error->manager.emit_message = courier_jpeg_emit_message;
    error->message[0] = 0;
}

courier_jpeg_decoder *courier_jpeg_open(const uint8_t *data, size_t size, int *code, char *message,
                                        size_t message_size) {
    courier_jpeg_decoder *decoder = calloc(1, sizeof(courier_jpeg_decoder));
    if (decoder == NULL) {
        *code = COURIER_JPEG_FAILED;
        courier_jpeg_copy(message, message_size, "out of memory");
        return NULL;
    }
    decoder->info.err = &decoder->error.manager;
    courier_jpeg_install_errors(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        *code = COURIER_JPEG_CORRUPT;
        courier_jpeg_copy(message, message_size, decoder->error.message);
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    jpeg_mem_src(&decoder->info, data, (unsigned long)size);
    jpeg_read_header(&decoder->info, TRUE);
    if (decoder->error.manager.num_warnings > 0) {
        *code = COURIER_JPEG_TRUNCATED;
        courier_jpeg_copy(message, message_size, decoder->error.message);
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    *code = COURIER_JPEG_OK;
    return decoder;
}

void courier_jpeg_size(const courier_jpeg_decoder *decoder, int *width, int *height) {
    *width = (int)decoder->info.image_width;
    *height = (int)decoder->info.image_height;
}

void courier_jpeg_set_scale(courier_jpeg_decoder *decoder, int scale_num, int *width, int *height) {
    if (scale_num < 1) scale_num = 1;
    if (scale_num > 8) scale_num = 8;
    decoder->info.scale_num = (unsigned int)scale_num;
    decoder->info.scale_denom = 8;
    decoder->info.out_color_space = JCS_EXT_RGBA;
    if (setjmp(decoder->error.jump)) {
        *width = 0;
        *height = 0;
        return;
    }
    jpeg_calc_output_dimensions(&decoder->info);
    *width = (int)decoder->info.output_width;
    *height = (int)decoder->info.output_height;
}

int courier_jpeg_decode(courier_jpeg_decoder *decoder, uint8_t *pixels, size_t stride, char *message,
                        size_t message_size) {
    if (setjmp(decoder->error.jump)) {
        courier_jpeg_copy(message, message_size, decoder->error.message);
        jpeg_abort_decompress(&decoder->info);
        return COURIER_JPEG_CORRUPT;
    }
    jpeg_start_decompress(&decoder->info);
    while (decoder->info.output_scanline < decoder->info.output_height) {
        JSAMPROW row = pixels + (size_t)decoder->info.output_scanline * stride;
        if (jpeg_read_scanlines(&decoder->info, &row, 1) != 1) break;
    }
    if (decoder->error.manager.num_warnings > 0) {
        courier_jpeg_copy(message, message_size, decoder->error.message);
        jpeg_abort_decompress(&decoder->info);
        return COURIER_JPEG_TRUNCATED;
    }
    jpeg_finish_decompress(&decoder->info);
    return COURIER_JPEG_OK;
}

void courier_jpeg_close(courier_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

int courier_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int quality,
                        uint8_t **output, unsigned long *output_size, char *message, size_t message_size) {
    struct jpeg_compress_struct info;
    struct courier_jpeg_error error;
    unsigned char *buffer = NULL;
    unsigned long size = 0;
    info.err = &error.manager;
    courier_jpeg_install_errors(&error);
    if (setjmp(error.jump)) {
        courier_jpeg_copy(message, message_size, error.message);
        jpeg_destroy_compress(&info);
        free(buffer);
        return COURIER_JPEG_FAILED;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_size = size;
    return COURIER_JPEG_OK;
}

void courier_jpeg_free(uint8_t *output) { free(output); }
