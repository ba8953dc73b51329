#!/usr/bin/env python3
"""Makes the news site's static images, with no imaging library:

  grayarrow.gif  10x10 up-vote arrow: a gray triangle on transparent
  graydown.gif   10x10 down-vote arrow (the same, upside down)
  s.gif          1x1 transparent spacer (html.arc's blank-url)
  arc.png        18x18 logo: a white "A" on an orange square (site-color*,
                 255,102,0) inside a white border, as HN's "Y" is
  favicon.ico    16x16 icon holding a PNG of the same logo

The GIF encoder is a plain LZW coder (GIF89a, one image, a two- or
four-colour palette, transparency through a Graphic Control Extension);
each GIF written is decoded again here and compared with its pixels, so a
wrong code stream fails the script rather than showing as a broken image.
PNGs are RGBA, deflated with zlib. Run: python3 mkimages.py [outdir]
(default: the folder of this script).
"""

import os
import struct
import sys
import zlib

ORANGE = (255, 102, 0)      # site-color*, html.arc's orange
GRAY = (153, 153, 153)      # the arrows' gray
WHITE = (255, 255, 255)


# --- GIF -----------------------------------------------------------------

def lzw_encode(pixels, min_size):
    """GIF's LZW: variable-width codes from min_size+1 bits up to 12,
    packed least significant bit first. A clear code starts the stream and
    restarts the dictionary whenever it is full."""
    clear = 1 << min_size
    eoi = clear + 1
    out = bytearray()
    acc = 0          # bit accumulator
    nbits = 0

    def emit(code, width):
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    def reset():
        return {(i,): i for i in range(clear)}, eoi + 1, min_size + 1

    table, nxt, width = reset()
    emit(clear, width)
    prefix = ()
    for p in pixels:
        cand = prefix + (p,)
        if cand in table:
            prefix = cand
            continue
        emit(table[prefix], width)
        if nxt < 4096:
            table[cand] = nxt
            nxt += 1
            # The decoder adds its entry one code later than we do, so it
            # widens when its table reaches 2^width: one entry after ours.
            if nxt > (1 << width) and width < 12:
                width += 1
        else:
            emit(clear, width)
            table, nxt, width = reset()
        prefix = (p,)
    if prefix:
        emit(table[prefix], width)
    emit(eoi, width)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def lzw_decode(data, min_size):
    """The inverse, to check the encoder."""
    clear = 1 << min_size
    eoi = clear + 1
    pos = 0          # bit position

    def read(width):
        nonlocal pos
        v = 0
        for i in range(width):
            byte = data[(pos + i) >> 3]
            v |= ((byte >> ((pos + i) & 7)) & 1) << i
        pos += width
        return v

    out = []
    table = None
    width = min_size + 1
    prev = None
    while True:
        code = read(width)
        if code == clear:
            table = [(i,) for i in range(clear)] + [None, None]
            width = min_size + 1
            prev = None
            continue
        if code == eoi:
            return out
        if prev is None:
            entry = table[code]
        elif code < len(table):
            entry = table[code]
            table.append(prev + entry[:1])
        else:                       # the code being defined (KwKwK)
            entry = prev + prev[:1]
            table.append(entry)
        out.extend(entry)
        prev = entry
        if len(table) == (1 << width) and width < 12:
            width += 1


def sub_blocks(data):
    """GIF data sub-blocks: length-prefixed pieces of at most 255 bytes,
    then a zero-length terminator."""
    out = bytearray()
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        out.append(len(piece))
        out += piece
    out.append(0)
    return bytes(out)


def gif(width, height, palette, pixels, transparent=None):
    """A GIF89a of palette indices pixels (row by row). palette: list of
    (r, g, b), padded to a power of two of at least 2 entries."""
    size = 2
    while size < len(palette):
        size *= 2
    bits = size.bit_length() - 1            # 2^bits colours
    pal = list(palette) + [(0, 0, 0)] * (size - len(palette))
    min_size = max(2, bits)

    out = bytearray(b"GIF89a")
    # Logical screen: size, global colour table flag + colour resolution +
    # table size, background index, aspect ratio.
    out += struct.pack("<HHBBB", width, height,
                       0x80 | ((bits - 1) << 4) | (bits - 1), 0, 0)
    for r, g, b in pal:
        out += bytes((r, g, b))
    if transparent is not None:
        # Graphic Control Extension: transparency flag, no delay.
        out += bytes((0x21, 0xF9, 4, 0x01, 0, 0, transparent, 0))
    # Image descriptor: whole screen, no local table, not interlaced.
    out += b"\x2C" + struct.pack("<HHHHB", 0, 0, width, height, 0)
    code = lzw_encode(pixels, min_size)
    if lzw_decode(code, min_size) != list(pixels):
        raise SystemExit("mkimages: LZW round trip failed")
    out.append(min_size)
    out += sub_blocks(code)
    out.append(0x3B)                        # trailer
    return bytes(out)


# --- PNG -----------------------------------------------------------------

def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + \
        struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, rgba_rows):
    """An 8-bit RGBA PNG; rgba_rows: rows of (r, g, b, a) tuples."""
    raw = bytearray()
    for row in rgba_rows:
        raw.append(0)                       # filter: none
        for px in row:
            raw += bytes(px)
    return (b"\x89PNG\r\n\x1a\n"
            + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                             8, 6, 0, 0, 0))
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + png_chunk(b"IEND", b""))


def ico_with_png(size, png_data):
    """A one-image .ico whose image is a PNG (read by every current
    browser and by Windows since Vista)."""
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32,
                        len(png_data), 6 + 16)
    return header + entry + png_data


# --- The pictures ----------------------------------------------------------

def arrow(up):
    """10x10 palette indices: 0 transparent, 1 gray. Rows 1-8 hold an
    isosceles triangle, two pixels wide at its point, the full width at
    its base; rows 0 and 9 are empty."""
    rows = []
    for y in range(10):
        half = 0.625 * y if 1 <= y <= 8 else -1
        rows.append([1 if abs(x + 0.5 - 5) <= half + 1e-9 else 0
                     for x in range(10)])
    if not up:
        rows.reverse()
    return [p for row in rows for p in row]


# The letter of the logo, white on the orange: "A" for Arcana, in strokes
# two pixels wide so that it reads at 16 and 18 pixels.
GLYPH = [
    "....##....",
    "...####...",
    "...####...",
    "..##..##..",
    "..##..##..",
    ".##....##.",
    ".########.",
    ".########.",
    "##......##",
    "##......##",
    "##......##",
]


def logo(size):
    """size x size RGBA: a one-pixel white border around an orange
    square, the glyph centred in it."""
    gw, gh = len(GLYPH[0]), len(GLYPH)
    left, top = (size - gw) // 2, (size - gh + 1) // 2
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            edge = x in (0, size - 1) or y in (0, size - 1)
            gx, gy = x - left, y - top
            letter = 0 <= gx < gw and 0 <= gy < gh and GLYPH[gy][gx] == "#"
            row.append((WHITE if edge or letter else ORANGE) + (255,))
        rows.append(row)
    return rows


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    files = {
        "grayarrow.gif": gif(10, 10, [(0, 0, 0), GRAY], arrow(True), 0),
        "graydown.gif": gif(10, 10, [(0, 0, 0), GRAY], arrow(False), 0),
        "s.gif": gif(1, 1, [(0, 0, 0), (0, 0, 0)], [0], 0),
        "arc.png": png(18, 18, logo(18)),
        "favicon.ico": ico_with_png(16, png(16, 16, logo(16))),
    }
    for name, data in files.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
        print(name, len(data), "bytes")


if __name__ == "__main__":
    main()
