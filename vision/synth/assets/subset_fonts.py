"""Rebuild the small glyph subsets in fonts/ from Debian's CJK font packages (run once; the results are committed).

    apt-get install fonts-noto-cjk fonts-lxgw-wenkai fonts-smiley-sans fonts-arphic-ukai fonts-arphic-uming \
        fonts-klee fonts-kouzan-mouhitsu fonts-cwtex-heib fonts-cwtex-yen fonts-morisawa-bizud-mincho fonts-seto \
        fonts-kiloji
    .venv/bin/python vision/synth/assets/subset_fonts.py

Licences (texts in fonts/LICENSE-*.txt, copied from each package's Debian copyright file): SIL OFL 1.1 (Noto CJK,
LXGW WenKai, Smiley Sans, Klee One, BIZ UDMincho, Seto), Arphic Public License (UKai, UMing), public domain (Kouzan
brush fonts), GPL-2+ with a font embedding exception (cwTeX), BSD-3-Clause (kiloji). OFL asks that a modified font
with a Reserved Font Name is renamed, so every subset but Noto's and Smiley Sans' (which reserve no name used here)
gets a new family name.
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
    "ukai": ("/usr/share/fonts/truetype/arphic/ukai.ttc", "AR PL UKai CN", "Mjsnap UKai Subset"),
    "uming": ("/usr/share/fonts/truetype/arphic/uming.ttc", "AR PL UMing CN", "Mjsnap UMing Subset"),
    "klee": ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", None, "Mjsnap Pen Subset"),
    "brush": ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", None, "Mjsnap Brush Subset"),
    "brush_running": ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", None,
                      "Mjsnap Running Brush Subset"),
    "heavy": ("/usr/share/fonts/truetype/cwtex/cwheib.ttf", None, "Mjsnap Heavy Subset"),
    "round": ("/usr/share/fonts/truetype/cwtex/cwyen.ttf", None, "Mjsnap Round Subset"),
    "mincho": ("/usr/share/fonts/truetype/bizud-mincho/BIZUDMincho-Regular.ttf", None, "Mjsnap Mincho Subset"),
    "hand": ("/usr/share/fonts/truetype/seto/setofont.ttf", None, "Mjsnap Hand Subset"),
    "kiloji": ("/usr/share/fonts/truetype/kiloji/kiloji_b.ttf", None, "Mjsnap Kiloji Subset"),
}
LICENCES = {  # licence file in fonts/ -> the Debian package whose copyright file it copies
    "LICENSE-arphic.txt": "fonts-arphic-ukai",
    "LICENSE-klee.txt": "fonts-klee",
    "LICENSE-kouzan.txt": "fonts-kouzan-mouhitsu",
    "LICENSE-cwtex.txt": "fonts-cwtex-heib",
    "LICENSE-bizud-mincho.txt": "fonts-morisawa-bizud-mincho",
    "LICENSE-seto.txt": "fonts-seto",
    "LICENSE-kiloji.txt": "fonts-kiloji",
}


def _open(path: str, face: str | None) -> TTFont:
    if face is None:
        return TTFont(path)
    for font in TTCollection(path).fonts:
        if font["name"].getDebugName(1) == face:
            return font
    raise LookupError(f"{face} not in {path}")


def _drop_broken_gasp(font: TTFont) -> None:
    """The Kouzan fonts carry a gasp table fontTools cannot read; it only tunes hinting, so it can go."""
    if "gasp" in font:
        try:
            font["gasp"]
        except AssertionError:
            del font["gasp"]


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for stem, (path, face, rename) in SOURCES.items():
        font = _open(path, face)
        _drop_broken_gasp(font)
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
    for name, package in LICENCES.items():
        (HERE / name).write_text(Path(f"/usr/share/doc/{package}/copyright").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
