// Image decoders through dlopen: a missing library is one line, and the vector map goes on
// (as PROJ and libcurl are loaded). The simplified libpng API (libpng manual, "Simplified API"),
// libjpeg's decompression cycle (libjpeg.txt), libwebp's WebPDecodeRGBA (webp/decode.h).
#include "cimage.h"

#include <dlfcn.h>
#include <stdio.h>  // before jpeglib.h, which uses FILE
#include <jpeglib.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>

static struct {
    int (*begin_read_from_memory)(png_imagep, png_const_voidp, size_t);
    int (*finish_read)(png_imagep, png_const_colorp, void *, png_int_32, void *);
    void (*image_free)(png_imagep);
} png;

static struct {
    struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *);
    void (*create_decompress)(j_decompress_ptr, int, size_t);
    void (*mem_src)(j_decompress_ptr, const unsigned char *, unsigned long);
    int (*read_header)(j_decompress_ptr, boolean);
    boolean (*start_decompress)(j_decompress_ptr);
    JDIMENSION (*read_scanlines)(j_decompress_ptr, JSAMPARRAY, JDIMENSION);
    boolean (*finish_decompress)(j_decompress_ptr);
    void (*destroy_decompress)(j_decompress_ptr);
} jpeg;

static struct {
    int (*get_info)(const uint8_t *, size_t, int *, int *);
    uint8_t *(*decode_rgba)(const uint8_t *, size_t, int *, int *);
    void (*free)(void *);
} webp;

static pthread_once_t once[3] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static char load_error[3][160];
static int loaded[3];

#define SYM(lib, table, field, name, which)                                                           \
    if (!(*(void **)&table.field = dlsym(lib, name))) {                                               \
        snprintf(load_error[which], sizeof load_error[which], "%s lacks %s", #table, name);           \
        return;                                                                                       \
    }

/* Opens one decoder's library; when it is missing, says so (and which Debian package has it). */
static void *open_library(const char *soname, int which, const char *name, const char *package) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error[which], sizeof load_error[which], "%s is not installed (Debian: apt-get install %s)",
                 name, package);
    }
    return lib;
}

static void load_png(void) {
    void *lib = open_library("libpng16.so.16", 0, "libpng", "libpng16-16");
    if (!lib) return;
    SYM(lib, png, begin_read_from_memory, "png_image_begin_read_from_memory", 0)
    SYM(lib, png, finish_read, "png_image_finish_read", 0)
    SYM(lib, png, image_free, "png_image_free", 0)
    loaded[0] = 1;
}

static void load_jpeg(void) {
    void *lib = open_library("libjpeg.so.62", 1, "libjpeg", "libjpeg62-turbo");
    if (!lib) return;
    SYM(lib, jpeg, std_error, "jpeg_std_error", 1)
    SYM(lib, jpeg, create_decompress, "jpeg_CreateDecompress", 1)
    SYM(lib, jpeg, mem_src, "jpeg_mem_src", 1)
    SYM(lib, jpeg, read_header, "jpeg_read_header", 1)
    SYM(lib, jpeg, start_decompress, "jpeg_start_decompress", 1)
    SYM(lib, jpeg, read_scanlines, "jpeg_read_scanlines", 1)
    SYM(lib, jpeg, finish_decompress, "jpeg_finish_decompress", 1)
    SYM(lib, jpeg, destroy_decompress, "jpeg_destroy_decompress", 1)
    loaded[1] = 1;
}

static void load_webp(void) {
    void *lib = open_library("libwebp.so.7", 2, "libwebp", "libwebp7");
    if (!lib) return;
    SYM(lib, webp, get_info, "WebPGetInfo", 2)
    SYM(lib, webp, decode_rgba, "WebPDecodeRGBA", 2)
    SYM(lib, webp, free, "WebPFree", 2)
    loaded[2] = 1;
}

static int too_big(int w, int h, int max_side, char *error, size_t n) {
    if (w <= 0 || h <= 0 || w > max_side || h > max_side) {
        snprintf(error, n, "image of %d×%d pixels (at most %d×%d)", w, h, max_side, max_side);
        return 1;
    }
    return 0;
}

static int decode_png(const uint8_t *bytes, size_t length, int max_side, uint8_t **rgba, int *w, int *h,
                      char *error, size_t n) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png.begin_read_from_memory(&image, bytes, length)) {
        snprintf(error, n, "not a PNG it can read (%s)", image.message);
        png.image_free(&image);
        return -1;
    }
    if (too_big((int)image.width, (int)image.height, max_side, error, n)) {
        png.image_free(&image);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *out = malloc((size_t)image.width * image.height * 4);
    if (!out) {
        snprintf(error, n, "out of memory");
        png.image_free(&image);
        return -1;
    }
    if (!png.finish_read(&image, NULL, out, 0, NULL)) {
        snprintf(error, n, "damaged PNG (%s)", image.message);
        free(out);
        png.image_free(&image);
        return -1;
    }
    *rgba = out;
    *w = (int)image.width;
    *h = (int)image.height;
    return 0;
}

// libjpeg reports a fatal error by calling error_exit, which must not return: it jumps back here.
struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
};

static void jpeg_exit(j_common_ptr info) {
    struct jpeg_failure *f = (struct jpeg_failure *)info->err;
    f->manager.format_message(info, f->message);
    longjmp(f->back, 1);
}

static void jpeg_quiet(j_common_ptr info, int level) { (void)info; (void)level; }

static int decode_jpeg(const uint8_t *bytes, size_t length, int max_side, uint8_t **rgba, int *w, int *h,
                       char *error, size_t n) {
    struct jpeg_decompress_struct info;
    struct jpeg_failure failure;
    uint8_t *volatile out = NULL;
    uint8_t *volatile row = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg.std_error(&failure.manager);
    failure.manager.error_exit = jpeg_exit;
    failure.manager.emit_message = jpeg_quiet;
    if (setjmp(failure.back)) {
        snprintf(error, n, "damaged JPEG (%s)", failure.message);
        jpeg.destroy_decompress(&info);
        free(out);
        free(row);
        return -1;
    }
    jpeg.create_decompress(&info, JPEG_LIB_VERSION, sizeof info);
    jpeg.mem_src(&info, bytes, (unsigned long)length);
    jpeg.read_header(&info, TRUE);
    if (too_big((int)info.image_width, (int)info.image_height, max_side, error, n)) {
        jpeg.destroy_decompress(&info);
        return -1;
    }
    info.out_color_space = JCS_RGB;
    jpeg.start_decompress(&info);
    int width = (int)info.output_width, height = (int)info.output_height;
    if (info.output_components != 3 || too_big(width, height, max_side, error, n)) {
        if (info.output_components != 3) snprintf(error, n, "JPEG of %d components", info.output_components);
        jpeg.destroy_decompress(&info);
        return -1;
    }
    out = malloc((size_t)width * height * 4);
    row = malloc((size_t)width * 3);
    if (!out || !row) {
        snprintf(error, n, "out of memory");
        jpeg.destroy_decompress(&info);
        free(out);
        free(row);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = {row};
        int y = (int)info.output_scanline;
        if (jpeg.read_scanlines(&info, rows, 1) != 1) break;
        for (int x = 0; x < width; x++) {
            out[((size_t)y * width + x) * 4 + 0] = row[x * 3 + 0];
            out[((size_t)y * width + x) * 4 + 1] = row[x * 3 + 1];
            out[((size_t)y * width + x) * 4 + 2] = row[x * 3 + 2];
            out[((size_t)y * width + x) * 4 + 3] = 255;
        }
    }
    jpeg.finish_decompress(&info);
    jpeg.destroy_decompress(&info);
    free(row);
    *rgba = out;
    *w = width;
    *h = height;
    return 0;
}

static int decode_webp(const uint8_t *bytes, size_t length, int max_side, uint8_t **rgba, int *w, int *h,
                       char *error, size_t n) {
    int width = 0, height = 0;
    if (!webp.get_info(bytes, length, &width, &height)) {
        snprintf(error, n, "not a WebP it can read");
        return -1;
    }
    if (too_big(width, height, max_side, error, n)) return -1;
    uint8_t *decoded = webp.decode_rgba(bytes, length, &width, &height);
    if (!decoded) {
        snprintf(error, n, "damaged WebP");
        return -1;
    }
    // Copied into malloc's memory, so that one free fits every decoder's pixels.
    uint8_t *out = malloc((size_t)width * height * 4);
    if (out) memcpy(out, decoded, (size_t)width * height * 4);
    webp.free(decoded);
    if (!out) {
        snprintf(error, n, "out of memory");
        return -1;
    }
    *rgba = out;
    *w = width;
    *h = height;
    return 0;
}

int cimage_decode(const uint8_t *bytes, size_t length, int kind, int max_side, uint8_t **rgba, int *width,
                  int *height, char *error, size_t error_length) {
    static void (*loaders[3])(void) = {load_png, load_jpeg, load_webp};
    if (kind < 0 || kind > 2 || !bytes || !rgba || !width || !height) {
        snprintf(error, error_length, "not an image kind termmap decodes");
        return -1;
    }
    pthread_once(&once[kind], loaders[kind]);
    if (!loaded[kind]) {
        snprintf(error, error_length, "%s", load_error[kind]);
        return -1;
    }
    *rgba = NULL;
    switch (kind) {
    case CIMAGE_PNG: return decode_png(bytes, length, max_side, rgba, width, height, error, error_length);
    case CIMAGE_JPEG: return decode_jpeg(bytes, length, max_side, rgba, width, height, error, error_length);
    default: return decode_webp(bytes, length, max_side, rgba, width, height, error, error_length);
    }
}

void cimage_free(uint8_t *rgba) { free(rgba); }
