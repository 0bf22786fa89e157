"""Tile faces drawn from scratch: CJK glyphs from the committed fonts, dots and bamboo drawn as shapes.

A `Scheme` fixes one tile set's look (face colour, ink colours, font, traditional or simplified characters, how
白 is drawn). `draw_face` draws one face at 2x and downsamples, so edges are smooth at any tile size.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from vision.synth.fonts import FONT_NAMES, font_for, load_font

RGB = tuple[int, int, int]
BACK = 34
FLOWER = 35
BASE_SIZE = (120, 160)  # (w, h) of a cached face; tiles resize from it
NUMERALS = "一二三四五六七八九"
FLOWER_GLYPHS = "春夏秋冬梅兰竹菊"


@dataclass(frozen=True)
class Scheme:
    name: str
    face: RGB = (246, 242, 228)
    numeral: RGB = (28, 48, 140)
    man: RGB = (190, 28, 30)
    wind: RGB = (28, 48, 140)
    red: RGB = (200, 30, 30)
    green: RGB = (20, 120, 60)
    dots: tuple[RGB, RGB, RGB] = ((30, 60, 160), (20, 130, 70), (200, 35, 35))  # blue, green, red
    bamboo: tuple[RGB, RGB, RGB] = ((25, 125, 60), (30, 60, 160), (200, 35, 35))  # green, blue, red
    white: str = "frame"  # one of WHITE_STYLES
    white_colour: RGB = (30, 70, 170)
    font: str = "serif"
    traditional: bool = True
    five: str = "五"
    back: RGB = (30, 120, 70)  # colour of the back layer, shown on a face-down tile
    dot_style: str = "rings"  # one of DOT_STYLES
    corner_index: bool = False  # a small rank or wind letter in the top-left corner (Hong Kong style sets)
    weight: int = 0  # pixels (at the 2x drawing size) added to each side of a glyph's strokes; negative thins them
    numeral_bottom: float = 0.45  # where a 萬 tile's numeral ends, as a share of the face height
    finish: str = "flat"  # how the ink sits on the face: one of FINISHES
    bird: str = "sparrow"  # the 1-bamboo picture: one of BIRD_STYLES
    bird_faces_left: bool = False  # the bird looks left (a bird drawn the other way round is still the same tile)
    flower: str = "blossom"  # how flowers and seasons are pictured: one of FLOWER_STYLES

    def __post_init__(self) -> None:
        if self.white not in WHITE_STYLES:
            raise ValueError(f"unknown 白 style {self.white!r}; expected one of {WHITE_STYLES}")
        if self.dot_style not in DOT_STYLES:
            raise ValueError(f"unknown dot style {self.dot_style!r}; expected one of {DOT_STYLES}")
        if self.finish not in FINISHES:
            raise ValueError(f"unknown finish {self.finish!r}; expected one of {FINISHES}")
        if self.bird not in BIRD_STYLES:
            raise ValueError(f"unknown 1-bamboo style {self.bird!r}; expected one of {BIRD_STYLES}")
        if self.flower not in FLOWER_STYLES:
            raise ValueError(f"unknown flower style {self.flower!r}; expected one of {FLOWER_STYLES}")


WHITE_STYLES = ("blank", "frame", "double", "corners", "thick")
DOT_STYLES = ("rings", "filled", "outline", "petals")  # concentric rings (classic), plain, one ring, rayed
# Real tiles are carved and painted: the groove's walls shade one side of every stroke and light the other
# ("engraved"); lacquered art sets shine on top of raised strokes with a shadow below ("glossy"); some sets rim
# coloured glyphs in black ("outlined"); old sets lose paint in patches ("worn").
FINISHES = ("flat", "engraved", "glossy", "outlined", "worn")
# Makers picture the 1 of bamboo in many ways and a classifier that knew one bird read other sets' birds as
# winds or numerals (hold-out proxy): a perched sparrow, a peacock with its tail fanned, a long-legged crane, or
# a single bamboo stalk with leaves. Flowers and seasons likewise: a blossom or a flowering branch, the name small.
# (Birds and flowers brush-painted like cmd's taught the hold-out proxy to read cmd's photos worse:
# benchmarks/results/painted_pictures.md and painted_birds.md, the drawings in commit 706ea44.)
# (A third style, the name large over a small blossom, taught a classifier to read real 萬, wind and dragon tiles as
# flowers: on cmd's real photos, benchmarks/results/unseen_sets_e8_v13/.)
# 發 stays green: inked like the numerals in 3 sets in 10, as most of cmd's are, it did not stop the hold-out proxy
# reading cmd's 發 as 東 (benchmarks/results/inked_fa.md, the change in commit e456175).
BIRD_STYLES = ("sparrow", "peacock", "crane", "stalk")
FLOWER_STYLES = ("blossom", "branch")


SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in (
        Scheme("default"),
        Scheme("classic_kai", font="kai", numeral=(20, 20, 20), wind=(20, 20, 20), back=(40, 90, 170)),
        Scheme(
            "simplified_sans", font="sans", traditional=False, white="blank", face=(250, 250, 248),
            numeral=(20, 20, 20), wind=(20, 20, 20), back=(220, 170, 40), dot_style="filled",
        ),
        Scheme(
            "green_ink", font="serif", numeral=(20, 110, 60), wind=(20, 110, 60), white="double",
            white_colour=(20, 110, 60), five="伍", back=(30, 90, 60), corner_index=True,
        ),
        Scheme(
            "bold_modern", font="smiley", traditional=False, face=(252, 250, 244), numeral=(30, 30, 120),
            wind=(30, 30, 30), dots=((20, 90, 200), (0, 150, 90), (230, 40, 60)), bamboo=((0, 150, 90), (20, 90, 200),
            (230, 40, 60)), back=(200, 60, 60), dot_style="filled", white="frame", white_colour=(20, 90, 200),
        ),
        Scheme(
            "yellowed_old", font="kai", face=(236, 224, 190), numeral=(60, 40, 30), wind=(60, 40, 30),
            man=(160, 40, 30), dots=((40, 70, 120), (50, 110, 60), (170, 50, 40)), back=(70, 130, 90), five="伍",
        ),
        Scheme(
            "hk_index", font="kai", face=(250, 250, 250), numeral=(30, 40, 150), wind=(30, 40, 150),
            back=(40, 120, 200), corner_index=True, white="frame", white_colour=(30, 60, 190),
        ),
    )
}
STYLE_NAMES = tuple(SCHEMES)


def random_scheme(rng: np.random.Generator) -> Scheme:
    """One of the named schemes with random colour shifts, font, stroke weight, layout and character set: a new
    'tile set' per photo."""
    base = SCHEMES[STYLE_NAMES[rng.integers(len(STYLE_NAMES))]]

    def shift(colour: RGB, amount: int = 30) -> RGB:
        return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in colour)  # type: ignore

    ink = shift(base.numeral)
    return replace(
        base,
        name=f"{base.name}*",
        face=shift(base.face, 10),
        numeral=ink,
        wind=ink if rng.random() < 0.6 else shift(base.wind),
        man=shift(base.man),
        font=FONT_NAMES[rng.integers(len(FONT_NAMES))] if rng.random() < 0.8 else base.font,
        traditional=bool(rng.random() < 0.6),
        five="伍" if rng.random() < 0.25 else "五",
        white=WHITE_STYLES[rng.integers(len(WHITE_STYLES))],
        white_colour=shift(base.white_colour),
        # Half the sets take any dot style, the other half the two commonest in real sets (rings, filled).
        dot_style=DOT_STYLES[rng.integers(len(DOT_STYLES))] if rng.random() < 0.5 else ("rings", "filled")[
            rng.integers(2)],
        corner_index=bool(rng.random() < 0.35),
        weight=int(rng.integers(-2, 7)),
        numeral_bottom=float(rng.uniform(0.36, 0.52)),
        dots=tuple(shift(c) for c in base.dots),  # type: ignore
        bamboo=tuple(shift(c) for c in base.bamboo),  # type: ignore
        # drawn last, so the sets of the pool keep every earlier choice they had before finishes existed
        finish=str(rng.choice(FINISHES, p=(0.4, 0.2, 0.15, 0.1, 0.15))),
        # ... and after the finish, for the same reason
        bird=BIRD_STYLES[rng.integers(len(BIRD_STYLES))],
        bird_faces_left=bool(rng.random() < 0.5),
        flower=FLOWER_STYLES[rng.integers(len(FLOWER_STYLES))],
    )


@lru_cache(maxsize=1)
def scheme_pool(size: int = 96) -> tuple[Scheme, ...]:
    """A fixed pool of randomised schemes (the named ones first), so drawn faces are cached across photos."""
    return tuple(SCHEMES.values()) + tuple(
        random_scheme(np.random.default_rng([7, i])) for i in range(size - len(SCHEMES))
    )


def draw_face(kind: int, scheme: Scheme, variant: int = 0) -> np.ndarray:
    """RGB uint8 array of BASE_SIZE (h, w, 3). `variant` picks among the 8 flower/season faces."""
    return _draw_cached(kind, scheme, variant % 8 if kind == FLOWER else 0)


@lru_cache(maxsize=4096)
def _draw_cached(kind: int, scheme: Scheme, variant: int) -> np.ndarray:
    w, h = BASE_SIZE[0] * 2, BASE_SIZE[1] * 2
    img = Image.new("RGB", (w, h), scheme.back if kind == BACK else scheme.face)
    draw = ImageDraw.Draw(img)
    if kind < 9:
        _characters(draw, kind + 1, scheme, w, h)
    elif kind < 18:
        _dots(draw, kind - 8, scheme, w, h)
    elif kind < 27:
        _bamboo(draw, kind - 17, scheme, w, h)
    elif kind < 31:
        wind = ("東南西北" if scheme.traditional else "东南西北")[kind - 27]
        _glyph(draw, wind, (0.12 * w, 0.14 * h, 0.88 * w, 0.86 * h), scheme.font, scheme.wind, scheme.weight)
    elif kind == 31:
        _glyph(draw, "中", (0.1 * w, 0.14 * h, 0.9 * w, 0.86 * h), scheme.font, scheme.red, scheme.weight)
    elif kind == 32:
        _glyph(draw, "發" if scheme.traditional else "发", (0.1 * w, 0.14 * h, 0.9 * w, 0.86 * h), scheme.font,
               scheme.green, scheme.weight)
    elif kind == 33:
        _white(draw, scheme, w, h)
    elif kind == BACK:
        _back(draw, scheme, w, h)
    elif kind == FLOWER:
        _flower(draw, variant, scheme, w, h)
    else:
        raise ValueError(f"tile class {kind} is out of range 0..35")
    if scheme.corner_index and kind < 31:
        img = _with_corner_index(img, kind, scheme)
    if kind != BACK:
        img = _finished(img, scheme, seed=kind * 8 + variant)
    out = img.resize(BASE_SIZE, Image.LANCZOS)
    return np.asarray(out, dtype=np.uint8)


def _finished(img: Image.Image, s: Scheme, seed: int) -> Image.Image:
    """The face with its ink finished as `s.finish` says (at the 2x drawing size; light from the top left)."""
    if s.finish == "flat":
        return img
    rgb = np.asarray(img, np.float32)
    face = np.array(s.face, np.float32)
    ink = (np.abs(rgb - face).max(axis=2) > 20).astype(np.float32)
    if not ink.any():  # a blank 白 has nothing to finish
        return img
    w, h = img.size
    d = max(2, round(0.012 * w))
    if s.finish == "engraved":
        wall = _soft(ink * (1 - _shifted(ink, d, d)))  # just inside the upper-left edge: in the groove's shadow
        lit = _soft(ink * (1 - _shifted(ink, -d, -d)))  # just inside the lower-right edge: the lit wall
        out = rgb * (1 - 0.5 * wall) + (255 - rgb) * 0.35 * lit
    elif s.finish == "glossy":
        shine = _soft(ink * (1 - _shifted(ink, 2 * d, 0)), 2.0)  # the top of each raised stroke catches the light
        drop = _soft((1 - ink) * _shifted(ink, 2 * d, d), 2.5)  # and it casts a shadow below and to the right
        out = rgb * (1 - 0.3 * drop)
        out = out + (255 - out) * 0.55 * shine
    elif s.finish == "outlined":
        grown = np.asarray(_mask_image(ink).filter(ImageFilter.MaxFilter(2 * d + 1)), np.float32) / 255
        rim = _soft(grown * (1 - ink), 0.7)
        out = rgb * (1 - rim) + np.array((35, 30, 30), np.float32) * rim
    else:  # worn: paint gone in coarse patches, back toward the bare face
        rng = np.random.default_rng([zlib.crc32(s.name.encode()), seed])
        noise = _mask_image(rng.random((h // 24 + 1, w // 24 + 1))).resize((w, h), Image.BICUBIC)
        gone = np.clip((np.asarray(noise, np.float32)[..., None] / 255 - 0.55) * 4, 0, 1) * ink[..., None]
        out = rgb * (1 - 0.7 * gone) + face * 0.7 * gone
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))


def _mask_image(mask: np.ndarray) -> Image.Image:
    return Image.fromarray((np.clip(mask, 0, 1) * 255).astype(np.uint8))


def _soft(mask: np.ndarray, radius: float = 1.0) -> np.ndarray:
    """(H, W, 1) float mask in [0, 1], blurred: the edges of light and shade are soft."""
    return np.asarray(_mask_image(mask).filter(ImageFilter.GaussianBlur(radius)), np.float32)[..., None] / 255


def _shifted(mask: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """mask[p - (dy, dx)]: the mask moved down by dy and right by dx (the face's edge is blank, so wrapping is harmless)."""
    return np.roll(mask, (dy, dx), axis=(0, 1))


def _with_corner_index(img: Image.Image, kind: int, s: Scheme) -> Image.Image:
    """Shrink the art toward the bottom right and write the rank (or wind letter) small in the top-left corner."""
    w, h = img.size
    framed = Image.new("RGB", (w, h), s.face)
    framed.paste(img.resize((int(w * 0.84), int(h * 0.86)), Image.LANCZOS), (int(w * 0.13), int(h * 0.11)))
    label = "ESWN"[kind - 27] if kind >= 27 else str(kind % 9 + 1)
    _glyph(ImageDraw.Draw(framed), label, (0.03 * w, 0.02 * h, 0.2 * w, 0.15 * h), "sans", (30, 30, 30))
    return framed


def _glyph(draw: ImageDraw.ImageDraw, char: str, box: tuple[float, float, float, float], font: str,
           colour: RGB, weight: int = 0) -> None:
    """Draw `char` as large as fits in `box` (by its inked bounds), centred, its strokes `weight` px bolder."""
    name = font_for(font, char)
    left, top, right, bottom = _ink_bbox(name, char)
    x1, y1, x2, y2 = box
    scale = min((x2 - x1) / (right - left), (y2 - y1) / (bottom - top))
    f = load_font(name, max(int(_REF_SIZE * scale), 6))
    origin = ((x1 + x2) / 2 - (left + right) / 2 * scale, (y1 + y2) / 2 - (top + bottom) / 2 * scale)
    if weight == 0:
        draw.text(origin, char, font=f, fill=colour)
        return
    # Thicker or thinner strokes than the font's: the same glyph printed in another weight of ink.
    mask = Image.new("L", draw.im.size)
    ImageDraw.Draw(mask).text(origin, char, font=f, fill=255)
    stroke = ImageFilter.MaxFilter if weight > 0 else ImageFilter.MinFilter
    draw.bitmap((0, 0), mask.filter(stroke(2 * abs(weight) + 1)), fill=colour)


_REF_SIZE = 200


@lru_cache(maxsize=512)
def _ink_bbox(font: str, char: str) -> tuple[int, int, int, int]:
    """Inked bounds of a glyph drawn at the origin at the reference size (PIL's getbbox includes side bearings)."""
    img = Image.new("L", (_REF_SIZE * 2, _REF_SIZE * 2))
    ImageDraw.Draw(img).text((0, 0), char, font=load_font(font, _REF_SIZE), fill=255)
    box = img.getbbox()
    if box is None:
        raise ValueError(f"font {font!r} draws nothing for {char!r}")
    return box


def _characters(draw: ImageDraw.ImageDraw, rank: int, s: Scheme, w: int, h: int) -> None:
    numeral = s.five if rank == 5 else NUMERALS[rank - 1]
    top = (0.18 * w, 0.07 * h, 0.82 * w, s.numeral_bottom * h)
    _glyph(draw, numeral, top, s.font, s.numeral, s.weight)
    _glyph(draw, "萬" if s.traditional else "万", (0.12 * w, (s.numeral_bottom + 0.05) * h, 0.88 * w, 0.93 * h),
           s.font, s.man, s.weight)


# Dot centres in units of the face (x, y in 0..1) and the colour index (0 blue, 1 green, 2 red) of each.
_DOTS: dict[int, list[tuple[float, float, int]]] = {
    2: [(0.5, 0.28, 1), (0.5, 0.72, 0)],
    3: [(0.25, 0.2, 0), (0.5, 0.5, 2), (0.75, 0.8, 1)],
    4: [(0.3, 0.27, 0), (0.7, 0.27, 1), (0.3, 0.73, 1), (0.7, 0.73, 0)],
    5: [(0.27, 0.22, 0), (0.73, 0.22, 1), (0.5, 0.5, 2), (0.27, 0.78, 1), (0.73, 0.78, 0)],
    6: [(0.3, 0.17, 1), (0.7, 0.17, 1), (0.3, 0.5, 2), (0.7, 0.5, 2), (0.3, 0.83, 2), (0.7, 0.83, 2)],
    7: [(0.22, 0.12, 1), (0.5, 0.22, 1), (0.78, 0.32, 1), (0.3, 0.58, 2), (0.7, 0.58, 2), (0.3, 0.85, 2),
        (0.7, 0.85, 2)],
    8: [(x, y, 0) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.3, 0.7)],
    9: [(x, y, c) for y, c in ((0.18, 0), (0.5, 2), (0.82, 1)) for x in (0.2, 0.5, 0.8)],
}


def _disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def _dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, s: Scheme) -> None:
    if s.dot_style == "petals":  # a ring of short rays around a small disc, like the older carved sets
        for i in range(12):
            a = i * math.pi / 6
            _disc(draw, cx + 0.78 * r * math.cos(a), cy + 0.78 * r * math.sin(a), 0.2 * r, colour)
        _disc(draw, cx, cy, 0.5 * r, colour)
        _disc(draw, cx, cy, 0.2 * r, s.face)
        return
    _disc(draw, cx, cy, r, colour)
    if s.dot_style == "rings":
        _disc(draw, cx, cy, 0.72 * r, s.face)
        _disc(draw, cx, cy, 0.5 * r, colour)
        _disc(draw, cx, cy, 0.2 * r, s.face)
    elif s.dot_style == "outline":
        _disc(draw, cx, cy, 0.78 * r, s.face)
        _disc(draw, cx, cy, 0.25 * r, colour)
    else:  # filled
        _disc(draw, cx, cy, 0.35 * r, _lighter(colour))


def _dots(draw: ImageDraw.ImageDraw, rank: int, s: Scheme, w: int, h: int) -> None:
    if rank == 1:  # one big decorated dot
        cx, cy, r = w / 2, h / 2, 0.42 * w
        _disc(draw, cx, cy, r, s.dots[1])
        _disc(draw, cx, cy, 0.82 * r, s.face)
        for i in range(12):  # petals around the centre
            a = i * math.pi / 6
            px, py = cx + 0.6 * r * math.cos(a), cy + 0.6 * r * math.sin(a)
            _disc(draw, px, py, 0.14 * r, s.dots[0])
        _dot(draw, cx, cy, 0.38 * r, s.dots[2], s)
        return
    spots = _DOTS[rank]
    r = {2: 0.26, 3: 0.2, 4: 0.2, 5: 0.18, 6: 0.16, 7: 0.14, 8: 0.14, 9: 0.14}[rank] * w
    for x, y, c in spots:
        _dot(draw, 0.06 * w + 0.88 * w * x, 0.05 * h + 0.9 * h * y, r, s.dots[c], s)


def _stick(draw: ImageDraw.ImageDraw, cx: float, cy: float, length: float, width: float, colour: RGB,
           s: Scheme, angle: float = 0.0) -> None:
    """One bamboo stick: a rounded bar with a joint in the middle and at both ends, optionally slanted."""
    dx, dy = math.sin(angle) * length / 2, math.cos(angle) * length / 2
    x1, y1, x2, y2 = cx - dx, cy - dy, cx + dx, cy + dy
    draw.line((x1, y1, x2, y2), fill=colour, width=int(width))
    for t in (0.0, 0.5, 1.0):
        jx, jy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        jw = width * 0.75
        draw.ellipse((jx - jw, jy - jw * 0.45, jx + jw, jy + jw * 0.45), fill=colour)
    draw.line((cx - dx * 0.8, cy - dy * 0.8, cx - dx * 0.15, cy - dy * 0.15), fill=_lighter(colour),
              width=max(int(width * 0.25), 1))
    draw.line((cx + dx * 0.15, cy + dy * 0.15, cx + dx * 0.8, cy + dy * 0.8), fill=_lighter(colour),
              width=max(int(width * 0.25), 1))


# Stick centres (x, y in 0..1), colour index (0 green, 1 blue, 2 red) and slant in radians.
_STICKS: dict[int, list[tuple[float, float, int, float]]] = {
    2: [(0.5, 0.27, 1, 0.0), (0.5, 0.73, 0, 0.0)],
    3: [(0.5, 0.27, 1, 0.0), (0.3, 0.73, 0, 0.0), (0.7, 0.73, 0, 0.0)],
    4: [(0.3, 0.27, 1, 0.0), (0.7, 0.27, 0, 0.0), (0.3, 0.73, 0, 0.0), (0.7, 0.73, 1, 0.0)],
    5: [(0.22, 0.27, 0, 0.0), (0.78, 0.27, 1, 0.0), (0.5, 0.5, 2, 0.0), (0.22, 0.73, 1, 0.0), (0.78, 0.73, 0, 0.0)],
    6: [(x, y, 0 if y < 0.5 else 1, 0.0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.16, 2, 0.0)] + [(x, y, 0 if y < 0.6 else 1, 0.0) for y in (0.5, 0.84) for x in (0.2, 0.5, 0.8)],
    8: [(0.15, 0.27, 0, 0.0), (0.38, 0.27, 0, 0.45), (0.62, 0.27, 0, -0.45), (0.85, 0.27, 0, 0.0),
        (0.15, 0.73, 1, 0.0), (0.38, 0.73, 1, -0.45), (0.62, 0.73, 1, 0.45), (0.85, 0.73, 1, 0.0)],
    9: [(x, y, 2 if x == 0.5 else (0 if y != 0.5 else 1), 0.0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


def _bamboo(draw: ImageDraw.ImageDraw, rank: int, s: Scheme, w: int, h: int) -> None:
    if rank == 1:
        _bird(draw, s, w, h)
        return
    spots = _STICKS[rank]
    rows = len({y for _, y, _, _ in spots})
    length = (0.8 if rows == 2 else 0.27 if rows == 3 else 0.3) * h * (0.5 if rows == 2 else 1.0)
    width = (0.1 if rank < 6 else 0.085) * w
    for x, y, c, a in spots:
        _stick(draw, 0.06 * w + 0.88 * w * x, 0.04 * h + 0.92 * h * y, length, width, s.bamboo[c], s, a)


def _bird(draw: ImageDraw.ImageDraw, s: Scheme, w: int, h: int) -> None:
    """The 1 of bamboo as the scheme pictures it (BIRD_STYLES), looking right or left."""
    if s.bird == "stalk":
        _stalk(draw, s, w, h)
        return

    def x(u: float) -> float:  # a point u of the face's width from the left, mirrored when the bird looks left
        return (1 - u if s.bird_faces_left else u) * w

    def oval(u1: float, v1: float, u2: float, v2: float, colour: RGB) -> None:
        xs = sorted((x(u1), x(u2)))
        draw.ellipse((xs[0], v1 * h, xs[1], v2 * h), fill=colour)

    green, blue, red = s.bamboo
    if s.bird == "sparrow":  # perched, tail fanning down behind it
        for i in range(5):
            a = math.radians(200 + i * 14)
            draw.line((x(0.45), 0.62 * h, x(0.45 + 0.42 * math.cos(a)), 0.62 * h - 0.42 * w * math.sin(a)),
                      fill=(green, blue)[i % 2], width=int(0.06 * w))
        oval(0.3, 0.38, 0.75, 0.72, green)
        oval(0.4, 0.45, 0.68, 0.62, blue)
        oval(0.58, 0.2, 0.82, 0.4, green)
        draw.polygon([(x(0.8), 0.27 * h), (x(0.95), 0.32 * h), (x(0.8), 0.34 * h)], fill=red)
        oval(0.68, 0.26, 0.73, 0.3, (20, 20, 20))
        draw.line((x(0.48), 0.72 * h, x(0.44), 0.86 * h), fill=red, width=int(0.03 * w))
        draw.line((x(0.6), 0.72 * h, x(0.62), 0.86 * h), fill=red, width=int(0.03 * w))
    elif s.bird == "peacock":  # standing, its tail a fan of eyed feathers behind the body
        for i in range(7):
            a = math.radians(25 + i * 21.7)
            tip = (0.5 + 0.4 * math.cos(a), 0.62 - 0.48 * math.sin(a) * h / w * 0.75)
            draw.line((x(0.5), 0.62 * h, x(tip[0]), tip[1] * h), fill=green, width=int(0.035 * w))
            oval(tip[0] - 0.07, tip[1] - 0.05, tip[0] + 0.07, tip[1] + 0.05, green)
            oval(tip[0] - 0.035, tip[1] - 0.025, tip[0] + 0.035, tip[1] + 0.025, blue)
        oval(0.4, 0.45, 0.62, 0.8, blue)
        oval(0.46, 0.3, 0.62, 0.44, blue)
        draw.line((x(0.53), 0.36 * h, x(0.52), 0.55 * h), fill=blue, width=int(0.08 * w))
        for u in (0.5, 0.55, 0.6):  # the crest
            oval(u - 0.015, 0.22, u + 0.015, 0.26, red)
        draw.polygon([(x(0.61), 0.35 * h), (x(0.7), 0.37 * h), (x(0.61), 0.39 * h)], fill=red)
        draw.line((x(0.47), 0.8 * h, x(0.45), 0.92 * h), fill=red, width=int(0.03 * w))
        draw.line((x(0.56), 0.8 * h, x(0.58), 0.92 * h), fill=red, width=int(0.03 * w))
    else:  # crane: long legs, a curved neck, a red crown
        oval(0.2, 0.42, 0.7, 0.62, green)
        draw.polygon([(x(0.25), 0.5 * h), (x(0.05), 0.42 * h), (x(0.12), 0.58 * h)], fill=blue)  # tail
        draw.line([(x(0.6), 0.48 * h), (x(0.56), 0.36 * h), (x(0.6), 0.27 * h), (x(0.7), 0.22 * h)], fill=green,
                  width=int(0.05 * w), joint="curve")
        oval(0.64, 0.15, 0.8, 0.27, green)
        oval(0.68, 0.14, 0.75, 0.19, red)
        draw.line((x(0.78), 0.21 * h, x(0.95), 0.25 * h), fill=red, width=int(0.025 * w))
        for u in (0.4, 0.5):
            draw.line((x(u), 0.6 * h, x(u - 0.02), 0.92 * h), fill=red, width=int(0.025 * w))


def _stalk(draw: ImageDraw.ImageDraw, s: Scheme, w: int, h: int) -> None:
    """One tall bamboo stalk with a few leaves: how some sets picture the 1 of bamboo."""
    green, blue, red = s.bamboo
    _stick(draw, 0.5 * w, 0.5 * h, 0.8 * h, 0.16 * w, green, s)
    for side, v in ((-1, 0.3), (1, 0.45), (-1, 0.62)):  # leaves, alternating sides
        ax, ay = 0.5 * w + side * 0.08 * w, v * h
        bx, by = ax + side * 0.3 * w, ay - 0.1 * h
        draw.polygon([(ax, ay), ((ax + bx) / 2, ay - 0.06 * h), (bx, by), ((ax + bx) / 2, ay + 0.01 * h)], fill=blue)
    _disc(draw, 0.5 * w, 0.1 * h, 0.05 * w, red)


def _white(draw: ImageDraw.ImageDraw, s: Scheme, w: int, h: int) -> None:
    if s.white == "blank":
        return
    lw = int((0.1 if s.white == "thick" else 0.045) * w)
    box = (0.14 * w, 0.12 * h, 0.86 * w, 0.88 * h)
    if s.white == "corners":  # only the four corners of the frame, as brackets
        x1, y1, x2, y2 = box
        arm = 0.2 * w
        for x, y, dx, dy in ((x1, y1, 1, 1), (x2, y1, -1, 1), (x1, y2, 1, -1), (x2, y2, -1, -1)):
            draw.line((x, y, x + dx * arm, y), fill=s.white_colour, width=lw)
            draw.line((x, y, x, y + dy * arm), fill=s.white_colour, width=lw)
        return
    draw.rectangle(box, outline=s.white_colour, width=lw)
    if s.white == "double":
        draw.rectangle((0.26 * w, 0.22 * h, 0.74 * w, 0.78 * h), outline=s.white_colour, width=lw)


def _back(draw: ImageDraw.ImageDraw, s: Scheme, w: int, h: int) -> None:
    """A face-down tile shows only the back colour, with a faint lighter centre like a moulded back."""
    draw.rounded_rectangle((0.12 * w, 0.1 * h, 0.88 * w, 0.9 * h), radius=int(0.1 * w), fill=_lighter(s.back, 0.12))


def _flower(draw: ImageDraw.ImageDraw, variant: int, s: Scheme, w: int, h: int) -> None:
    """Flower or season as the scheme pictures it (FLOWER_STYLES), with its number 1-4 in a corner."""
    colour = ((200, 40, 60), (30, 120, 60), (210, 120, 20), (40, 70, 160))[variant % 4]
    glyph = FLOWER_GLYPHS[variant]
    if s.flower == "branch":  # a flowering branch across the face, the name small beside it
        brown = (110, 70, 40)
        points = [(0.18 * w, 0.9 * h), (0.42 * w, 0.62 * h), (0.55 * w, 0.4 * h), (0.8 * w, 0.14 * h)]
        draw.line(points, fill=brown, width=int(0.035 * w), joint="curve")
        draw.line((0.42 * w, 0.62 * h, 0.78 * w, 0.58 * h), fill=brown, width=int(0.025 * w))
        for u, v, r in ((0.55, 0.4, 0.09), (0.8, 0.14, 0.07), (0.78, 0.58, 0.08), (0.3, 0.76, 0.06)):
            _blossom(draw, u * w, v * h, r * w, colour, variant)
        _glyph(draw, glyph, (0.1 * w, 0.3 * h, 0.36 * w, 0.52 * h), s.font, colour)
    else:  # blossom: one big flower on a stem, the name below
        cx, cy, r = 0.5 * w, 0.38 * h, 0.16 * w
        _blossom(draw, cx, cy, r, colour, variant)
        draw.line((cx, cy + r, cx - 0.1 * w, 0.7 * h), fill=(40, 110, 50), width=int(0.03 * w))
        _glyph(draw, glyph, (0.3 * w, 0.68 * h, 0.9 * w, 0.95 * h), s.font, colour)
    _glyph(draw, str(variant % 4 + 1), (0.08 * w, 0.05 * h, 0.25 * w, 0.2 * h), "serif", (30, 30, 30))


def _blossom(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, turn: float) -> None:
    """Five round petals about a yellow heart."""
    for i in range(5):
        a = i * 2 * math.pi / 5 + turn
        _disc(draw, cx + r * math.cos(a), cy + r * math.sin(a), r * 0.8, colour)
    _disc(draw, cx, cy, r * 0.5, (230, 190, 40))


def _lighter(colour: RGB, amount: float = 0.45) -> RGB:
    return tuple(int(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]
