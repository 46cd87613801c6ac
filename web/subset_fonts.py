#!/usr/bin/python3
"""Subsets the DejaVu fonts the page ships to the characters it draws (build step).

    subset_fonts.py --ranges engine/widgets/glyph_ranges.inc --out DIR FONT.ttf...

Each FONT.ttf is written to DIR under the same name, keeping
  - only the characters listed in glyph_ranges.inc (the list ImGui rasterises, fonts.cpp), and
  - only the tables Dear ImGui's rasteriser (stb_truetype) reads: outlines (glyf, loca), the
    character map (cmap), metrics (head, hhea, hmtx) and the glyph count (maxp). ImGui does no
    kerning, shaping or hinting, so kern/GPOS/GSUB/GDEF, hinting programs and tables, names and
    PostScript names are dead weight in the download.
Needs Debian's python3-fonttools (run with /usr/bin/python3, which has it).
"""
import argparse
import os
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

# What stb_truetype (imgui 1.86's rasteriser) reads; everything else is dropped.
KEPT_TABLES = {"cmap", "glyf", "loca", "head", "hhea", "hmtx", "maxp"}

RANGE_LINE = re.compile(r"^\s*0x([0-9A-Fa-f]+)\s*,\s*0x([0-9A-Fa-f]+)\s*,")


def read_ranges(path):
    """[(first, last), ...] from glyph_ranges.inc (one `0xFIRST, 0xLAST,` pair per line)."""
    ranges = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            match = RANGE_LINE.match(line)
            if not match:
                continue
            first, last = int(match.group(1), 16), int(match.group(2), 16)
            if first > last or (ranges and first <= ranges[-1][1]):
                sys.exit(f"{path}:{number}: ranges must be ascending and must not overlap")
            ranges.append((first, last))
    if not ranges:
        sys.exit(f"{path}: no `0xFIRST, 0xLAST,` ranges found")
    return ranges


def codepoints(ranges):
    return [c for first, last in ranges for c in range(first, last + 1)]


def subset_font(source, destination, wanted):
    """Writes `source` reduced to the characters in `wanted` (those it has) and KEPT_TABLES."""
    options = subset.Options()
    options.layout_features = []      # no shaping in ImGui: drop GSUB/GPOS lookups
    options.hinting = False           # stb_truetype does not hint
    options.notdef_outline = False    # ImGui draws its own fallback ('?'), not .notdef
    options.glyph_names = False
    options.name_IDs = []
    options.drop_tables += sorted({"kern", "GSUB", "GPOS", "GDEF", "gasp", "hdmx", "LTSH", "VDMX",
                                   "FFTM", "BASE", "MATH", "JSTF", "meta", "DSIG", "cvt", "fpgm",
                                   "prep", "vhea", "vmtx"})
    font = TTFont(source, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    for tag in list(font.keys()):
        if tag != "GlyphOrder" and tag not in KEPT_TABLES:
            del font[tag]
    # Deterministic output (the build is reproducible, and the download cache stays valid).
    font["head"].modified = font["head"].created
    font.save(destination, reorderTables=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranges", required=True, help="engine/widgets/glyph_ranges.inc")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("fonts", nargs="+", help="source .ttf files")
    args = parser.parse_args()
    wanted = codepoints(read_ranges(args.ranges))
    os.makedirs(args.out, exist_ok=True)
    for source in args.fonts:
        subset_font(source, os.path.join(args.out, os.path.basename(source)), wanted)


if __name__ == "__main__":
    main()
