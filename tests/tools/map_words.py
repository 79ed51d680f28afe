#!/usr/bin/env python3
"""Checks the words on a map page, read back with poppler's `pdftotext -bbox-layout`:
no two words on the map overlap, and every room number appears on the map exactly once.

usage: map_words.py PAGE.html ROOMS|DUNGEON.json [--no-numbers]
ROOMS is a count (rooms 1..ROOMS); a dungeon's JSON gives each room's printed number
(battleships numbers rooms per level). --no-numbers checks overlaps only (cards print
their ranks on the map too). A number right after "Level" or a die ("d4 2" in a leximorph
sector's caption) is a caption's, not a room's.
The map is everything between the subtitle (the line below the title) and the word
"Legend", and, where the key begins beside the map ("Room key" above the legend), on
the map's side of it: right of the legend's left edge when the key runs down the left,
left of the key's heading when the key stands to the right; a word's box is the font's full height, so boxes are shrunk by 20% of their
height top and bottom before comparing (glyphs of two stacked lines do not touch; a
badge's "?" or "St" has no descender, which its box still holds)."""
import re
import sys
from collections import Counter

def words(path):
    pat = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
    with open(path, encoding="utf-8") as f:
        return [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in pat.findall(f.read())]

def main():
    page, rooms = sys.argv[1], sys.argv[2]
    check_numbers = "--no-numbers" not in sys.argv[3:]
    if rooms.isdigit():
        want = Counter(str(n) for n in range(1, int(rooms) + 1))
    else:
        import json
        with open(rooms, encoding="utf-8") as f:
            want = Counter(str(r.get("number", r["id"])) for r in json.load(f)["rooms"])
    ws = words(page)
    legend = [w for w in ws if w[4] == "Legend"]
    if not legend:
        print("no 'Legend' on the page"); return 1
    lines = sorted({round(w[1], 1) for w in ws})
    top = [w for w in ws if round(w[1], 1) == lines[1]]  # the subtitle line
    y0 = max(w[3] for w in top)
    y1 = legend[0][1]
    x0, x1 = -1e9, 1e9
    heads = [a for a, b in zip(ws, ws[1:]) if a[4] == "Room" and b[4] == "key" and abs(a[1] - b[1]) < 0.5]
    if heads and heads[0][3] < y1:  # the key beside the map
        kx, lx = heads[0][0], legend[0][0]
        if kx < lx - 20:
            x0 = lx - 2
        else:
            x1 = kx - 2
    onmap = [w for w in ws if w[1] >= y0 - 0.1 and w[3] <= y1 + 0.1 and w[0] >= x0 and w[2] <= x1]
    bad = 0
    for i in range(len(onmap)):
        a = onmap[i]
        sa = (a[3] - a[1]) * 0.2
        for b in onmap[i + 1:]:
            sb = (b[3] - b[1]) * 0.2
            if a[0] < b[2] - 0.3 and b[0] < a[2] - 0.3 and a[1] + sa < b[3] - sb and b[1] + sb < a[3] - sa:
                print(f"overlap: {a[4]!r} at ({a[0]:.1f},{a[1]:.1f}) and {b[4]!r} at ({b[0]:.1f},{b[1]:.1f})")
                bad += 1
    def caption(w):  # the "2" of a "Level 2" caption, a roll's "2" in "d4 2" (a leximorph sector),
        # or a scale bar's "100 ft"
        return any((o[4] == "Level" or re.fullmatch(r"d\d+", o[4])) and abs(o[1] - w[1]) < 0.5
                   and 0 <= w[0] - o[2] < 8 for o in onmap) or \
            any(o[4] == "ft" and abs(o[1] - w[1]) < 0.5 and 0 <= o[0] - w[2] < 8 for o in onmap)
    numbers = Counter(w[4] for w in onmap if w[4].isdigit() and not caption(w))
    if check_numbers and numbers != want:
        print(f"room numbers on the map: missing {sorted((want - numbers).elements(), key=int)}, "
              f"extra {sorted((numbers - want).elements(), key=int)}")
        bad += 1
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
