"""Rebuild the small glyph subsets in fonts/ from Debian's CJK font packages (run once; the results are committed).

    apt-get install fonts-noto-cjk fonts-lxgw-wenkai fonts-smiley-sans
    .venv/bin/python vision/synth/assets/subset_fonts.py

All three are SIL OFL 1.1 (licence texts in fonts/). OFL asks that a modified font with a Reserved Font Name is
renamed: LXGW WenKai reserves "LXGW", so its subset is renamed; Noto CJK and Smiley Sans reserve no name used here.
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

GLYPHS = "一二三四五六七八九伍萬万東南西北东中發发白春夏秋冬梅蘭兰竹菊123456789ESWN"
HERE = Path(__file__).resolve().parent / "fonts"
SOURCES = {
    # output stem: (source file, face name inside a collection or None, new family name or None)
    "serif_sc_bold": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", "Noto Serif CJK SC", None),
    "sans_sc_bold": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "Noto Sans CJK SC", None),
    "kai_bold": ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", None, "Mjsnap Kai Subset"),
    "smiley_oblique": ("/usr/share/fonts/truetype/smiley-sans/SmileySans-Oblique.ttf", None, None),
}


def _open(path: str, face: str | None) -> TTFont:
    if face is None:
        return TTFont(path)
    for font in TTCollection(path).fonts:
        if font["name"].getDebugName(1) == face:
            return font
    raise LookupError(f"{face} not in {path}")


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for stem, (path, face, rename) in SOURCES.items():
        font = _open(path, face)
        options = subset.Options()
        options.layout_features = []
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=GLYPHS)
        subsetter.subset(font)
        if rename:
            for record in font["name"].names:
                if record.nameID in (1, 3, 4, 6, 16):
                    record.string = rename if record.nameID != 6 else rename.replace(" ", "")
        ext = ".otf" if "CFF " in font else ".ttf"
        font.save(HERE / f"{stem}{ext}")
        print(stem, (HERE / f"{stem}{ext}").stat().st_size)


if __name__ == "__main__":
    main()
