#ifndef CIMAGE_H
#define CIMAGE_H

#include <stddef.h>
#include <stdint.h>

/// Image kinds: what a tile's first bytes say it is.
enum { CIMAGE_PNG = 0, CIMAGE_JPEG = 1, CIMAGE_WEBP = 2 };

/// Decodes `length` bytes of an image of `kind` to 8-bit RGBA rows, with libpng, libjpeg(-turbo) or
/// libwebp loaded on first use. Refuses, before decoding a pixel, an image wider or taller than
/// `max_side`. On success returns 0 and sets *rgba (free it with cimage_free), *width, *height; on
/// failure returns -1 and writes one line to `error`.
int cimage_decode(const uint8_t *bytes, size_t length, int kind, int max_side, uint8_t **rgba, int *width,
                  int *height, char *error, size_t error_length);

/// Frees what cimage_decode gave.
void cimage_free(uint8_t *rgba);

#endif
