"""The news site's look, as served: new accounts' names are green (HN's
mark, shown to editors) in greens with WCAG AA contrast (4.5:1) against
the page and the top bar they are drawn on. Server: servers/newsserver.arc.

usage: python3 tests/web/test_news_look.py path/to/arcana
"""
import re
import sys

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


if __name__ == "__main__":
    webtest.main()
