"""The news site's look, as served: new accounts' names are green (HN's
mark, shown to editors) in greens with WCAG AA contrast (4.5:1) against
the page and the top bar they are drawn on; the logo is a letter on the
site's orange, not a plain square. Server: servers/newsserver.arc.

usage: python3 tests/web/test_news_look.py path/to/arcana
"""
import re
import struct
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402

AA = 4.5  # WCAG 2 level AA, normal-size text


def rgb(hexcol):
    return tuple(int(hexcol[i:i + 2], 16) for i in (0, 2, 4))


def luminance(c):
    """WCAG 2's relative luminance of an sRGB colour."""
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def css_color(css, selector):
    m = re.search(r"(?m)^" + re.escape(selector) + r"\s*\{[^}]*color:\s*#([0-9a-fA-F]{6})", css)
    return m and rgb(m.group(1))


def png_pixels(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG,
    whatever its row filters."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    assert depth == 8 and ctype in (2, 6) and not interlace, ihdr
    bpp = 4 if ctype == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


class NewsLookTest(webtest.NewsServerTest):

    def test_new_accounts_names_are_a_readable_green(self):
        status, _, css = self.client().request("GET", "/news.css")
        self.assertEqual(status, 200)
        css = css.decode()
        page_green, bar_green = css_color(css, ".noob"), css_color(css, ".pagetop .noob")
        self.assertIsNotNone(page_green, "no .noob colour in news.css")
        self.assertIsNotNone(bar_green, "no .pagetop .noob colour in news.css")
        for c in (page_green, bar_green):  # green: its green channel leads
            self.assertGreater(c[1], max(c[0], c[2]), "not a green: %r" % (c,))
        # The backgrounds as the page draws them: the top bar's cell, then
        # the sand of the table the items are in.
        html = self.page("boss", "/user?id=carol").body
        bgs = re.findall(r"bgcolor=#([0-9a-fA-F]{6})", html)
        self.assertGreaterEqual(len(bgs), 2, "no top bar and page colours: %s" % html[:1000])
        page_bg, bar_bg = rgb(bgs[0]), rgb(bgs[1])
        self.assertEqual((page_bg, bar_bg), ((246, 246, 239), (255, 102, 0)))
        self.assertGreaterEqual(contrast(page_green, page_bg), AA)
        self.assertGreaterEqual(contrast(bar_green, bar_bg), AA)
        # carol is new: the admin sees her name (her reply on the talk
        # story) marked so; a user sees it plain
        path = "/item?id=%d" % self.items["talk"]
        self.assertRegex(self.page("boss", path).body, r'<span class="?noob"?>carol</span>')
        self.assertIn("carol", self.page("alice", path).body)
        self.assertNotRegex(self.page("alice", path).body, r'class="?noob"?')

    def test_logo_is_a_letter_on_the_orange(self):
        status, h, data = self.client().request("GET", "/arc.png")
        self.assertEqual(status, 200)
        self.assertTrue(h.get("content-type", "").startswith("image/png"), h)
        w, hgt, rows = png_pixels(data)
        self.assertEqual((w, hgt), (18, 18))
        white, orange = (255, 255, 255), (255, 102, 0)
        border = rows[0] + rows[-1] + [r[0] for r in rows] + [r[-1] for r in rows]
        self.assertTrue(all(p == white for p in border), "the border is not white")
        inside = [p for r in rows[1:-1] for p in r[1:-1]]
        self.assertGreater(inside.count(orange), len(inside) // 2, "not an orange square")
        # a white letter on it: not the plain square that looks like a
        # missing image
        self.assertGreaterEqual(inside.count(white), 30, "no letter on the logo")
        self.assertEqual(len(inside), inside.count(orange) + inside.count(white))
        self.assertIn("arc.png", self.page(None, "/news").body)


if __name__ == "__main__":
    webtest.main()
