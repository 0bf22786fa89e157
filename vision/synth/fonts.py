"""The CJK fonts committed under assets/fonts (small glyph subsets of free fonts, see assets/subset_fonts.py).

Printed, carved, brush, cursive and hand-written styles, so drawn 萬 numerals and honours are not one typeface's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "assets" / "fonts"
FONT_FILES = {
    "serif": FONT_DIR / "serif_sc_bold.otf",
    "sans": FONT_DIR / "sans_sc_bold.otf",
    "kai": FONT_DIR / "kai_bold.ttf",
    "smiley": FONT_DIR / "smiley_oblique.ttf",
    "ukai": FONT_DIR / "ukai.ttf",
    "uming": FONT_DIR / "uming.ttf",
    "klee": FONT_DIR / "klee.ttf",
    "brush": FONT_DIR / "brush.ttf",
    "brush_running": FONT_DIR / "brush_running.ttf",
    "heavy": FONT_DIR / "heavy.ttf",
    "round": FONT_DIR / "round.ttf",
    "mincho": FONT_DIR / "mincho.ttf",
    "hand": FONT_DIR / "hand.ttf",
    "kiloji": FONT_DIR / "kiloji.ttf",
    "grass": FONT_DIR / "grass.ttf",  # grass script: many real sets write 發 (and some 萬) in cursive
    "cursive": FONT_DIR / "cursive.ttf",
}
FONT_NAMES = tuple(FONT_FILES)


@lru_cache(maxsize=None)
def _coverage(name: str) -> frozenset[str]:
    return frozenset(chr(code) for code in TTFont(FONT_FILES[name]).getBestCmap())


def has_glyph(name: str, char: str) -> bool:
    return char in _coverage(name)


def font_for(name: str, char: str) -> str:
    """`name` when it has the glyph, else the serif font (which has every glyph the faces use)."""
    return name if has_glyph(name, char) else "serif"


@lru_cache(maxsize=256)
def load_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILES[name]), size)
