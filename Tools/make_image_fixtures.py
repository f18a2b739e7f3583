#!/usr/bin/env python3
"""Small raster tiles and the pixels Pillow decodes from them, for the image decoders' tests (issue 47):
a 16×12 PNG with alpha (colour stripes over a gradient, so rows, columns and channels all differ), the
same picture as a JPEG (quality 95) and as a lossless WebP; and hostile ones: a PNG cut in half, a PNG
whose header claims 100000 × 100000 pixels (a valid IHDR and nothing else), a RIFF/WEBP file of noise.
Writes Tests/MapDataTests/Fixtures/images/*.{png,jpg,webp} and pixels.json.

    python3 Tools/make_image_fixtures.py      (Pillow: Debian python3-pil, or pip)
"""
import json
import os
import random
import struct
import zlib

from PIL import Image

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "Tests", "MapDataTests", "Fixtures", "images")


def picture():
    img = Image.new("RGBA", (16, 12))
    stripes = [(230, 40, 40), (40, 200, 60), (30, 60, 220), (240, 220, 30)]
    for y in range(12):
        for x in range(16):
            r, g, b = stripes[y // 3]
            img.putpixel((x, y), (r, (g + 8 * x) % 256, b, 255 - 10 * x))
    return img


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    os.makedirs(OUT, exist_ok=True)
    img = picture()
    img.save(os.path.join(OUT, "stripes.png"))
    img.convert("RGB").save(os.path.join(OUT, "stripes.jpg"), quality=95)
    img.save(os.path.join(OUT, "stripes.webp"), lossless=True)
    expected = {}
    for name in ("stripes.png", "stripes.jpg", "stripes.webp"):
        with Image.open(os.path.join(OUT, name)) as im:
            rgba = im.convert("RGBA")
            expected[name] = {"width": rgba.width, "height": rgba.height,
                              "rgba": list(rgba.tobytes())}
    png = open(os.path.join(OUT, "stripes.png"), "rb").read()
    with open(os.path.join(OUT, "truncated.png"), "wb") as f:
        f.write(png[: len(png) // 2])
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0))
    # A few rows of data follow, so that a reader gets as far as the size before it would make the pixels.
    bomb += chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    with open(os.path.join(OUT, "bomb.png"), "wb") as f:
        f.write(bomb)
    rng = random.Random(47)
    noise = bytes(rng.randrange(256) for _ in range(200))
    with open(os.path.join(OUT, "noise.webp"), "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(noise) + 4) + b"WEBP" + noise)
    with open(os.path.join(OUT, "pixels.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT}: 3 images, 3 hostile files, pixels.json")


if __name__ == "__main__":
    main()
