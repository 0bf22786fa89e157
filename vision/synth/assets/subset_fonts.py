"""Rebuild the small glyph subsets in fonts/ from Debian's CJK font packages (run once; the results are committed).

    apt-get install fonts-noto-cjk fonts-lxgw-wenkai fonts-smiley-sans fonts-arphic-ukai fonts-arphic-uming \
        fonts-klee fonts-kouzan-mouhitsu fonts-cwtex-heib fonts-cwtex-yen fonts-morisawa-bizud-mincho fonts-seto \
        fonts-kiloji
    .venv/bin/python vision/synth/assets/subset_fonts.py    # also runs `npm pack` for the two cursive fonts
    .venv/bin/python vision/synth/assets/subset_fonts.py grass cursive    # only these (no apt-get needed)

Two grass-script (cursive) fonts come from npm's Fontsource packages (Google Fonts, SIL OFL 1.1), which split each font
into chunks by Unicode range: the chunks holding our glyphs are subset and merged. Both are simplified-only fonts,
but in cursive script 萬 東 發 蘭 are written as their simplified forms are (the simplified forms come from those
cursive ones), so the traditional characters are mapped to the same glyphs: a real set's cursive 發 is drawn, not
the serif fallback.

Licences (texts in fonts/LICENSE-*.txt, copied from each package's Debian copyright file or npm LICENSE): SIL OFL 1.1
(Noto CJK, LXGW WenKai, Smiley Sans, Klee One, BIZ UDMincho, Seto, Liu Jian Mao Cao, Zhi Mang Xing), Arphic Public
License (UKai, UMing), public domain (Kouzan brush fonts), GPL-2+ with a font embedding exception (cwTeX),
BSD-3-Clause (kiloji). OFL asks that a modified font with a Reserved Font Name is renamed, so every subset but Noto's
and Smiley Sans' (which reserve no name used here) gets a new family name.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
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
NPM_SOURCES = {
    # output stem: (npm package, new family name)
    "grass": ("@fontsource/liu-jian-mao-cao@5.3.0", "Mjsnap Grass Subset"),
    "cursive": ("@fontsource/zhi-mang-xing@5.3.0", "Mjsnap Cursive Subset"),
}
CURSIVE_ALIASES = {"萬": "万", "東": "东", "發": "发", "蘭": "兰"}  # one form in cursive script (see above)
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


def _subset(font: TTFont, text: str, notdef_outline: bool = False) -> None:
    """Keep `text`'s glyphs, no layout features, and the name records the renaming rewrites."""
    options = subset.Options()
    options.layout_features = []
    options.notdef_outline = notdef_outline
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)


def _rename(font: TTFont, family: str) -> None:
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 6, 16):
            record.string = family if record.nameID != 6 else family.replace(" ", "")


def _from_npm(package: str, folder: Path) -> tuple[TTFont, str]:
    """The package's chunks that hold any of GLYPHS, subset and merged into one font, and its licence text."""
    subprocess.run(["npm", "pack", package, "--pack-destination", str(folder)], check=True, capture_output=True)
    (tarball,) = folder.glob("*.tgz")
    with tarfile.open(tarball) as archive:
        archive.extractall(folder, filter="data")
    parts = []
    for chunk in sorted((folder / "package" / "files").glob("*-400-normal.woff")):
        font = TTFont(chunk)
        text = "".join(c for c in GLYPHS if ord(c) in font.getBestCmap())
        if not text:
            continue
        font.flavor = None
        for tag in ("GSUB", "GPOS", "GDEF"):  # no layout features are used, and merging them fails on empty ones
            if tag in font:
                del font[tag]
        _subset(font, text, notdef_outline=True)
        parts.append(folder / f"part{len(parts)}.ttf")
        font.save(parts[-1])
    merged = Merger().merge([str(p) for p in parts])
    for table in merged["cmap"].tables:
        for traditional, simplified in CURSIVE_ALIASES.items():
            if ord(simplified) in table.cmap:
                table.cmap[ord(traditional)] = table.cmap[ord(simplified)]
    return merged, (folder / "package" / "LICENSE").read_text(encoding="utf-8")


def main(stems: list[str]) -> None:
    """Rebuild the subsets named (all when none are)."""
    unknown = set(stems) - set(SOURCES) - set(NPM_SOURCES)
    if unknown:
        raise SystemExit(f"unknown font stems {sorted(unknown)}; known: {sorted({*SOURCES, *NPM_SOURCES})}")
    HERE.mkdir(exist_ok=True)
    for stem, (package, rename) in NPM_SOURCES.items():
        if stems and stem not in stems:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            font, licence = _from_npm(package, Path(tmp))
        _rename(font, rename)
        font.save(HERE / f"{stem}.ttf")
        (HERE / f"LICENSE-{stem}.txt").write_text(licence, encoding="utf-8")
        print(stem, (HERE / f"{stem}.ttf").stat().st_size)
    for stem, (path, face, rename) in SOURCES.items():
        if stems and stem not in stems:
            continue
        font = _open(path, face)
        _drop_broken_gasp(font)
        _subset(font, GLYPHS)
        if rename:
            _rename(font, rename)
        ext = ".otf" if "CFF " in font else ".ttf"
        font.save(HERE / f"{stem}{ext}")
        print(stem, (HERE / f"{stem}{ext}").stat().st_size)
    if not stems or set(stems) & set(SOURCES):  # the Debian packages' licences, with their fonts
        for name, package in LICENCES.items():
            (HERE / name).write_text(Path(f"/usr/share/doc/{package}/copyright").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main(sys.argv[1:])
