"""Print lying on the table beside a hand: a score sheet, a receipt, a phone showing the time, a cigarette pack.

Tiles carry print (numerals, 萬, winds, dragons), so a detector that has only seen print on tiles boxes any print:
candidate 0.23.0 boxed clock digits in 23 of 24 images with no tile (benchmarks/results/candidate_0.23.0). Here the
same characters appear with no tile around them, on paper, screens and boxes, and are never labelled. Drawn into the
background in photo pixels (the tiles are composited over it), turned and foreshortened as a camera would see them.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.synth.fonts import FONT_NAMES, has_glyph, load_font

PRINT_CHANCE = 0.3  # photos with print beside the hand
MAX_ITEMS = 3
CHAR_SHARE = (0.02, 0.08)  # character height as a share of the photo's short side: tiles' print spans about this
TILE_CHARACTERS = "一二三四五六七八九萬万東南西北中發白"
LATIN = "0123456789ABCDEFGHJKLMNPRSTUVWXYZ"
PAPER = ((244, 244, 238), (236, 232, 218), (250, 250, 250), (225, 235, 245), (250, 235, 200))
INK = ((20, 20, 25), (30, 40, 140), (170, 30, 30), (30, 90, 40))


@lru_cache(maxsize=256)  # as fonts.load_font: loaded once per size, not once per character drawn
def _latin_font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own font (it ships inside Pillow): Latin letters, digits and ':' that the CJK subsets lack."""
    return ImageFont.load_default(size)


def _cjk_font(rng: np.random.Generator, size: int, char: str) -> ImageFont.FreeTypeFont:
    names = [n for n in FONT_NAMES if has_glyph(n, char)]
    return load_font(names[int(rng.integers(len(names)))], size)


def _word(rng: np.random.Generator) -> str:
    """A score, a wind and a score, a price or a code: what score sheets and receipts hold."""
    kind = int(rng.integers(4))
    if kind == 0:
        return str(int(rng.integers(-99, 200)))
    if kind == 1:
        return "".join(rng.choice(list(TILE_CHARACTERS), int(rng.integers(1, 4))))
    if kind == 2:
        return f"{int(rng.integers(1, 999))}.{int(rng.integers(100)):02d}"
    return "".join(rng.choice(list(LATIN), int(rng.integers(2, 7))))


def _write(draw: ImageDraw.ImageDraw, rng: np.random.Generator, xy: tuple[float, float], text: str, size: int,
           ink: tuple[int, ...]) -> None:
    """Draws `text` a character at a time (each CJK character in a font that has it)."""
    x, y = xy
    for char in text:
        font = _latin_font(size) if ord(char) < 128 else _cjk_font(rng, size, char)
        draw.text((x, y), char, fill=ink, font=font)
        x += draw.textlength(char, font=font) + size * 0.08


def _sheet(rng: np.random.Generator, size: int) -> Image.Image:
    """A score sheet or receipt: rows of words, sometimes ruled into a table."""
    cols, rows = int(rng.integers(2, 6)), int(rng.integers(2, 9))
    cell_w, cell_h = int(size * rng.uniform(2.5, 4.5)), int(size * rng.uniform(1.3, 1.8))
    margin = int(size * 0.6)
    w, h = cols * cell_w + 2 * margin, rows * cell_h + 2 * margin
    paper = PAPER[int(rng.integers(len(PAPER)))]
    image = Image.new("RGBA", (w, h), paper + (255,))
    draw = ImageDraw.Draw(image)
    ink = INK[int(rng.integers(len(INK)))] + (255,)
    if rng.random() < 0.5:
        line = max(1, size // 14)
        for r in range(rows + 1):
            draw.line([(margin, margin + r * cell_h), (w - margin, margin + r * cell_h)], fill=ink, width=line)
        for c in range(cols + 1):
            draw.line([(margin + c * cell_w, margin), (margin + c * cell_w, h - margin)], fill=ink, width=line)
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.8:
                _write(draw, rng, (margin + c * cell_w + size * 0.2, margin + r * cell_h + size * 0.15), _word(rng),
                       size, ink)
    return image


def _phone(rng: np.random.Generator, size: int) -> Image.Image:
    """A phone face up with its lock screen on: a large clock and a line of small print."""
    w, h = int(size * rng.uniform(5.5, 7.0)), int(size * rng.uniform(11, 14))
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, w - 1, h - 1], radius=size, fill=(22, 22, 26, 255))
    screen = tuple(int(v) for v in rng.integers(10, 140, 3)) + (255,)
    draw.rounded_rectangle([size * 0.3, size * 0.3, w - size * 0.3, h - size * 0.3], radius=int(size * 0.8),
                           fill=screen)
    light = (245, 245, 245, 255)
    clock = f"{int(rng.integers(24))}:{int(rng.integers(60)):02d}"
    big = int(size * rng.uniform(1.6, 2.2))
    _write(draw, rng, (size * 0.8, h * 0.15), clock, big, light)
    _write(draw, rng, (size * 0.8, h * 0.15 + big * 1.4), _word(rng), max(6, size // 2), light)
    return image


def _pack(rng: np.random.Generator, size: int) -> Image.Image:
    """A box or pack in a strong colour with a word or two in large print."""
    w, h = int(size * rng.uniform(4, 7)), int(size * rng.uniform(5, 9))
    body = tuple(int(v) for v in rng.integers(0, 256, 3))
    image = Image.new("RGBA", (w, h), body + (255,))
    draw = ImageDraw.Draw(image)
    ink = tuple(255 - v for v in body) if rng.random() < 0.5 else (250, 245, 235)
    y = size * 0.5
    for _ in range(int(rng.integers(1, 3))):
        big = int(size * rng.uniform(1.0, 1.8))
        _write(draw, rng, (size * 0.4, y), _word(rng), big, ink + (255,))
        y += big * 1.4
    return image


ITEMS = (_sheet, _sheet, _phone, _pack)


def add_printed_matter(img: np.ndarray, rng: np.random.Generator) -> int:
    """Lays 0..MAX_ITEMS printed things onto the float RGB table `img` (H, W, 3) in place, each turned, foreshortened
    and casting a soft shadow; returns how many (0 on PRINT_CHANCE's other photos)."""
    if rng.random() >= PRINT_CHANCE:
        return 0
    H, W = img.shape[:2]
    count = int(rng.integers(1, MAX_ITEMS + 1))
    for _ in range(count):
        size = max(6, int(min(H, W) * rng.uniform(*CHAR_SHARE)))
        item = ITEMS[int(rng.integers(len(ITEMS)))](rng, size)
        _lay(img, np.asarray(item, np.float32), rng)
    return count


def _lay(img: np.ndarray, item: np.ndarray, rng: np.random.Generator) -> None:
    """Composites the RGBA `item` at a random place, angle and foreshortening, over a shadow."""
    H, W = img.shape[:2]
    h, w = item.shape[:2]
    angle = rng.uniform(0, 2 * math.pi)
    squash = rng.uniform(0.6, 1.0)  # a tilted camera shortens the table's depth
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    m = np.diag([1.0, squash]) @ rot
    centre = np.array([rng.uniform(0, W), rng.uniform(0, H)])
    affine = np.c_[m, centre - m @ np.array([w / 2, h / 2])].astype(np.float32)
    warped = cv2.warpAffine(item, affine, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = warped[..., 3:4] / 255.0
    if not alpha.any():
        return
    shadow = cv2.GaussianBlur(warped[..., 3], (0, 0), max(1.0, min(h, w) * 0.03)) / 255.0
    img *= (1.0 - 0.3 * shadow)[..., None]
    img[...] = img * (1.0 - alpha) + warped[..., :3] * alpha
