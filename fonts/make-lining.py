#!/usr/bin/env python3
"""Makes the shipped Vollkorn files print lining figures by default.

Debian's fonts-vollkorn maps the digits to old-style figures; cairo asks pango
for the 'lnum' feature, but libharu cannot apply OpenType features, so its room
numbers read "I" and "IO". Pointing the cmap's digits at the fonts' own lining
glyphs (zero.lf .. nine.lf) gives both backends the same glyphs. Run once, by
hand, with Debian's python3-fonttools, on the files in /usr/share/fonts/truetype/vollkorn:

    python3 fonts/make-lining.py /usr/share/fonts/truetype/vollkorn fonts
"""
import sys
from fontTools.ttLib import TTFont

DIGITS = "zero one two three four five six seven eight nine".split()
FILES = ["Vollkorn-Regular.ttf", "Vollkorn-Italic.ttf", "Vollkorn-Bold.ttf", "Vollkorn-BoldItalic.ttf"]


def main(src, dst):
    for name in FILES:
        font = TTFont(f"{src}/{name}")
        order = set(font.getGlyphOrder())
        for table in font["cmap"].tables:
            if not table.isUnicode():
                continue
            for i, digit in enumerate(DIGITS):
                if f"{digit}.lf" in order and ord("0") + i in table.cmap:
                    table.cmap[ord("0") + i] = f"{digit}.lf"
        font.save(f"{dst}/{name}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
