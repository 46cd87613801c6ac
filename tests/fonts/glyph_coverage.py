#!/usr/bin/python3
"""Every character a lesson or the UI draws is in the fonts the page ships.

The web build subsets the DejaVu faces to engine/widgets/glyph_ranges.inc (web/subset_fonts.py).
This test runs that same subsetting into a temporary folder, then reads
  - every lesson file (lessons/**/*.md except README.md) and string catalogue
    (lessons/**/*.strings), all of their text, and
  - every string literal in the engine's C++ (engine/**, web/main.cpp; not the terminal-only
    engine/cli), comments skipped, escapes decoded,
and fails, naming the file and line, for any character the shipped body font cannot draw.
It also checks the subset keeps only the tables stb_truetype reads and really drops what is not
listed. Run from the repository root: /usr/bin/python3 tests/fonts/glyph_coverage.py
"""
import glob
import os
import re
import sys
import tempfile
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "web"))

try:
    from fontTools.ttLib import TTFont
    import subset_fonts
except ImportError as error:
    sys.exit(f"glyph_coverage: {error} (apt install python3-fonttools; run with /usr/bin/python3)")

SOURCE_DIR = "/usr/share/fonts/truetype/dejavu"
FACES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSansMono.ttf"]
BODY = "DejaVuSans.ttf"

# A C++ string literal (with an optional u8/L/u/U prefix), or a comment to skip.
CPP_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)
ESCAPE = re.compile(r"\\(?:x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.S)
SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f",
                  "v": "\v"}


def decode_literal(body):
    """The text a C++ literal's body stands for (UTF-8 \\x bytes included)."""
    out = bytearray()
    last = 0
    for match in ESCAPE.finditer(body):
        out += body[last:match.start()].encode("utf-8")
        hex_byte, u16, u32, other = match.groups()
        if hex_byte:
            out.append(int(hex_byte, 16))
        elif u16 or u32:
            out += chr(int(u16 or u32, 16)).encode("utf-8")
        else:
            out += SIMPLE_ESCAPES.get(other, other).encode("utf-8")
        last = match.end()
    out += body[last:].encode("utf-8")
    return out.decode("utf-8", errors="replace")


def used_characters():
    """{character: "file:line" of its first use} over lessons, catalogues and UI strings."""
    used = {}

    def note(text, path, line, skip_format=False):
        for ch in text:
            if skip_format and unicodedata.category(ch) == "Cf":
                continue  # a byte order mark or joiner the C++ matches on, never draws
            if ord(ch) >= 0x20 and not ch.isspace() or ch == "\u00a0":
                used.setdefault(ch, f"{os.path.relpath(path, ROOT)}:{line}")

    lesson_files = [p for p in glob.glob(os.path.join(ROOT, "lessons", "**", "*.md"), recursive=True)
                    if os.path.basename(p) != "README.md"]
    lesson_files += glob.glob(os.path.join(ROOT, "lessons", "**", "*.strings"), recursive=True)
    for path in sorted(lesson_files):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                note(line, path, number)

    sources = [p for pattern in ("*.cpp", "*.h", "*.in")
               for p in glob.glob(os.path.join(ROOT, "engine", "**", pattern), recursive=True)
               if os.sep + "cli" + os.sep not in p]
    sources.append(os.path.join(ROOT, "web", "main.cpp"))
    for path in sorted(sources):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for token in CPP_TOKENS.finditer(text):
            if token.group(0).startswith('"'):
                note(decode_literal(token.group(0)[1:-1]), path, text.count("\n", 0, token.start()) + 1,
                     skip_format=True)
    return used


def describe(ch):
    return f"U+{ord(ch):04X} {ch} ({unicodedata.name(ch, 'unnamed')})"


def main():
    failures = []
    ranges = subset_fonts.read_ranges(os.path.join(ROOT, "engine", "ui", "glyph_ranges.inc"))
    wanted = subset_fonts.codepoints(ranges)
    used = used_characters()
    # The scan itself works: characters we know are drawn were found (so an empty scan fails).
    for known, where in (("√", "lessons"), ("✓", "UI strings")):
        if known not in used:
            failures.append(f"the scan did not find {describe(known)} in the {where}; is the scanner broken?")

    with tempfile.TemporaryDirectory() as out:
        cmaps, originals = {}, {}
        for face in FACES:
            source = os.path.join(SOURCE_DIR, face)
            target = os.path.join(out, face)
            subset_fonts.subset_font(source, target, wanted)
            font = TTFont(target)
            tables = set(font.keys()) - {"GlyphOrder"}
            if tables != subset_fonts.KEPT_TABLES:
                failures.append(f"{face}: tables {sorted(tables)}, expected exactly "
                                f"{sorted(subset_fonts.KEPT_TABLES)} (what stb_truetype reads)")
            cmaps[face] = font.getBestCmap()
            originals[face] = TTFont(source).getBestCmap()

        body = cmaps[BODY]
        for ch, where in sorted(used.items(), key=lambda item: ord(item[0])):
            if ord(ch) in body:
                continue
            if ord(ch) in originals[BODY]:
                failures.append(f"{where}: {describe(ch)} is not in the shipped fonts; add it to "
                                "engine/widgets/glyph_ranges.inc (docs/fonts.md)")
            else:
                failures.append(f"{where}: {describe(ch)} is not in DejaVu Sans at all, so the page "
                                "would draw '?'; use another character (docs/fonts.md)")
        # Every face keeps every listed character it has, and nothing that is not listed.
        listed = set(wanted)
        for face in FACES:
            lost = [c for c in listed if c in originals[face] and c not in cmaps[face]]
            extra = [c for c in cmaps[face] if c not in listed]
            if lost:
                failures.append(f"{face}: subsetting lost {len(lost)} listed characters, e.g. {describe(chr(lost[0]))}")
            if extra:
                failures.append(f"{face}: keeps {len(extra)} unlisted characters, e.g. {describe(chr(extra[0]))}")
        if ord("А") in body:  # Cyrillic А: in DejaVu, not listed, so it must be gone
            failures.append("the subset still has Cyrillic, which is not listed: subsetting did not happen")

    if failures:
        print("\n".join(failures))
        return 1
    glyphs = sum(1 for c in wanted if c in cmaps[BODY])
    print(f"{len(used)} distinct characters used by lessons and UI strings; all are among the "
          f"{glyphs} characters the shipped body font keeps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
