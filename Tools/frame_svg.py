#!/usr/bin/env python3
"""Turn a colour frame of `termmap render --color 256` (read from stdin) into an SVG image for the
docs/: one rectangle per run of cells with a background colour, one text element per run of glyphs
of one colour, in the xterm 256-colour palette on a black terminal. SGR changes may say only what
changed (39 and 49 are the default colours), as termmap sends them.

    termmap render --color 256 --size 100x30 --center 37.8,-122.4 --zoom 11 | python3 Tools/frame_svg.py > docs/frame.svg

Imagery's upper half blocks (`▀`) are drawn as rectangles of their colour over the cell's background.
docs/frame-imagery.svg: xplanet-images' earth.jpg through `Tools/make_imagery.py DIR earth`, then
    termmap render --tiles DIR/earth.mbtiles --center 22,12 --zoom 2.5 --color 256 --size 80x24
"""
import re
import sys
from xml.sax.saxutils import escape

CELL_W, CELL_H = 8.4, 17.0
SYSTEM = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
          (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
          (255, 0, 255), (0, 255, 255), (255, 255, 255)]


def rgb(i):
    if i < 16:
        r, g, b = SYSTEM[i]
    elif i < 232:
        levels = [0, 95, 135, 175, 215, 255]
        i -= 16
        r, g, b = levels[i // 36], levels[i // 6 % 6], levels[i % 6]
    else:
        r = g = b = 8 + 10 * (i - 232)
    return f"#{r:02x}{g:02x}{b:02x}"


def cells(text):
    """Rows of (glyph, foreground, background, bold) from SGR-coloured text."""
    rows, row = [], []
    fg, bg, bold, reverse = None, None, False, False
    for token in re.split(r"(\x1b\[[0-9;]*m)", text):
        if token.startswith("\x1b["):
            codes = [int(c) for c in token[2:-1].split(";") if c] or [0]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg, bg, bold, reverse = None, None, False, False
                elif c == 1:
                    bold = True
                elif c == 7:
                    reverse = True
                elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                    if c == 38:
                        fg = codes[i + 2]
                    else:
                        bg = codes[i + 2]
                    i += 2
                elif 30 <= c <= 37:
                    fg = c - 30
                elif c == 39:
                    fg = None
                elif 40 <= c <= 47:
                    bg = c - 40
                elif c == 49:
                    bg = None
                elif 90 <= c <= 97:
                    fg = c - 82
                elif 100 <= c <= 107:
                    bg = c - 92
                i += 1
            continue
        for ch in token:
            if ch == "\n":
                rows.append(row)
                row = []
            else:
                f, b = (bg if bg is not None else 0, fg if fg is not None else 250) if reverse else (fg, bg)
                row.append((ch, f, b, bold))
    if row:
        rows.append(row)
    return rows


def main():
    rows = cells(sys.stdin.read())
    cols = max(len(r) for r in rows)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * CELL_W:.0f}" height="{len(rows) * CELL_H:.0f}" '
           f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">',
           f'<rect width="100%" height="100%" fill="#000000"/>']
    for y, row in enumerate(rows):
        x = 0
        while x < len(row):
            bg = row[x][2]
            end = x
            while end < len(row) and row[end][2] == bg:
                end += 1
            if bg is not None:
                out.append(f'<rect x="{x * CELL_W:.1f}" y="{y * CELL_H:.1f}" width="{(end - x) * CELL_W:.1f}" '
                           f'height="{CELL_H}" fill="{rgb(bg)}"/>')
            x = end
        # Imagery's upper half blocks as rectangles of their colour (exact, whatever the font), runs
        # of one colour together.
        x = 0
        while x < len(row):
            if row[x][0] != "\u2580":
                x += 1
                continue
            end = x
            while end < len(row) and row[end][0] == "\u2580" and row[end][1] == row[x][1]:
                end += 1
            out.append(f'<rect x="{x * CELL_W:.1f}" y="{y * CELL_H:.1f}" width="{(end - x) * CELL_W:.1f}" '
                       f'height="{CELL_H / 2}" fill="{rgb(row[x][1] if row[x][1] is not None else 250)}"/>')
            x = end
        x = 0
        while x < len(row):
            fg, bold = row[x][1], row[x][3]
            end = x
            while end < len(row) and (row[end][1], row[end][3]) == (fg, bold):
                end += 1
            text = "".join(" " if c[0] == "\u2580" else c[0] for c in row[x:end])
            if text.strip():
                weight = ' font-weight="bold"' if bold else ""
                out.append(f'<text x="{x * CELL_W:.1f}" y="{y * CELL_H + 13:.1f}" fill="{rgb(fg if fg is not None else 250)}"'
                           f'{weight} textLength="{(end - x) * CELL_W:.1f}" xml:space="preserve">{escape(text)}</text>')
            x = end
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
