"""Drawn tile sets: the fonts, stroke weights, 白 frames and dot styles that make them differ from one another."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from vision.synth.drawn import (
    BIRD_STYLES,
    DOT_STYLES,
    FINISHES,
    FLOWER_STYLES,
    SCHEMES,
    WHITE_STYLES,
    draw_face,
    scheme_pool,
)
from vision.synth.fonts import FONT_NAMES, font_for, has_glyph

DEFAULT = SCHEMES["default"]
SHARED = "一二三四五六七八九南西北中"  # the same in traditional and simplified sets
SIMPLIFIED_ONLY = {"smiley"}  # a font of simplified glyphs: 萬 東 發 come from the serif font
ONE_MAN, FIVE_PIN, EAST, WHITE = 0, 13, 27, 33


def _ink(face: np.ndarray) -> float:
    """Share of the face that differs clearly from the default scheme's face colour."""
    return float((np.abs(face.astype(int) - np.array(DEFAULT.face)).sum(axis=2) > 90).mean())


@pytest.mark.parametrize("font", FONT_NAMES)
def test_every_font_draws_its_faces_itself(font: str) -> None:
    own = SHARED + ("万东发" if font in SIMPLIFIED_ONLY else "萬東發")
    missing = [c for c in own if not has_glyph(font, c)]
    assert not missing, f"{font} lacks {missing}"


@pytest.mark.parametrize("font", ["grass", "cursive"])
@pytest.mark.parametrize("kind", [ONE_MAN, EAST, 32])
def test_cursive_fonts_write_traditional_and_simplified_alike(font: str, kind: int) -> None:
    # In cursive script 萬 東 發 are written as 万 东 发 (subset_fonts.CURSIVE_ALIASES): a real set's cursive 發 is
    # drawn, not the serif fallback.
    traditional = draw_face(kind, replace(DEFAULT, font=font, traditional=True))
    assert np.array_equal(traditional, draw_face(kind, replace(DEFAULT, font=font, traditional=False)))
    assert np.abs(traditional.astype(np.float32) - draw_face(kind, DEFAULT)).mean() > 2.0


@pytest.mark.parametrize("char", ["发", "萬"])
def test_a_font_without_a_glyph_falls_back_to_serif(char: str) -> None:
    lacking = [f for f in FONT_NAMES if not has_glyph(f, char)]
    assert lacking, f"every font has {char}: this fallback is not exercised"
    assert all(font_for(f, char) == "serif" for f in lacking)
    face = draw_face(32 if char == "发" else ONE_MAN, replace(DEFAULT, font=lacking[0], traditional=char != "发"))
    assert _ink(face) > 0.05


@pytest.mark.parametrize("font", [f for f in FONT_NAMES if f != DEFAULT.font])
def test_fonts_draw_the_same_face_differently(font: str) -> None:
    scheme = replace(DEFAULT, traditional=font not in SIMPLIFIED_ONLY)
    for kind in (ONE_MAN, EAST):
        a = draw_face(kind, scheme).astype(np.float32)
        b = draw_face(kind, replace(scheme, font=font)).astype(np.float32)
        assert np.abs(a - b).mean() > 2.0, f"{font} draws kind {kind} as the serif font does"


@pytest.mark.parametrize("kind", [ONE_MAN, EAST, 31])
def test_stroke_weight_adds_or_removes_ink(kind: int) -> None:
    inks = [_ink(draw_face(kind, replace(DEFAULT, weight=w))) for w in (-2, 0, 3, 6)]
    assert inks == sorted(inks) and inks[-1] > 1.3 * inks[1] and inks[0] < inks[1], inks


def test_the_numeral_share_moves_the_numeral_and_man_apart() -> None:
    low, high = (draw_face(ONE_MAN, replace(DEFAULT, numeral_bottom=b)) for b in (0.36, 0.52))
    assert np.abs(low.astype(int) - high.astype(int)).mean() > 3.0


def test_white_styles_differ_and_blank_has_no_ink() -> None:
    faces = {style: draw_face(WHITE, replace(DEFAULT, white=style)) for style in WHITE_STYLES}
    assert _ink(faces["blank"]) == 0.0
    assert all(_ink(face) > 0.01 for style, face in faces.items() if style != "blank")
    assert _ink(faces["thick"]) > 1.5 * _ink(faces["frame"])
    for a, b in itertools.combinations(WHITE_STYLES, 2):
        assert np.abs(faces[a].astype(int) - faces[b].astype(int)).mean() > 1.0, (a, b)


def test_dot_styles_differ() -> None:
    faces = {style: draw_face(FIVE_PIN, replace(DEFAULT, dot_style=style)).astype(int) for style in DOT_STYLES}
    for a, b in itertools.combinations(DOT_STYLES, 2):
        assert np.abs(faces[a] - faces[b]).mean() > 2.0, (a, b)


ONE_BAMBOO, FLOWER = 18, 35


def test_bird_styles_differ_and_look_either_way() -> None:
    faces = {style: draw_face(ONE_BAMBOO, replace(DEFAULT, bird=style)).astype(int) for style in BIRD_STYLES}
    for a, b in itertools.combinations(BIRD_STYLES, 2):
        assert np.abs(faces[a] - faces[b]).mean() > 2.0, (a, b)
    assert all(_ink(face.astype(np.uint8)) > 0.05 for face in faces.values())
    right = faces["sparrow"].astype(np.uint8)
    left = draw_face(ONE_BAMBOO, replace(DEFAULT, bird_faces_left=True))
    mirrored, unmirrored = (np.abs(left.astype(int) - r.astype(int)).mean() for r in (right[:, ::-1], right))
    assert mirrored < 0.4 * unmirrored  # the same bird, the other way round (up to a pixel's rounding)


def test_flower_styles_differ_for_every_flower() -> None:
    for variant in range(8):
        faces = {style: draw_face(FLOWER, replace(DEFAULT, flower=style), variant).astype(int) for style in FLOWER_STYLES}
        for a, b in itertools.combinations(FLOWER_STYLES, 2):
            assert np.abs(faces[a] - faces[b]).mean() > 2.0, (variant, a, b)


def test_the_pool_draws_every_bird_and_flower_style() -> None:
    pool = scheme_pool()
    assert {s.bird for s in pool} == set(BIRD_STYLES) and {s.flower for s in pool} == set(FLOWER_STYLES)
    assert {s.bird_faces_left for s in pool} == {True, False}


@pytest.mark.parametrize(("field", "kind"), [("white", WHITE), ("dot_style", FIVE_PIN), ("bird", ONE_BAMBOO),
                                             ("flower", FLOWER)])
def test_unknown_styles_are_refused(field: str, kind: int) -> None:
    with pytest.raises(ValueError, match="unknown"):
        draw_face(kind, replace(DEFAULT, **{field: "no-such-style"}))


def test_the_random_pool_mixes_fonts_weights_and_styles() -> None:
    pool = scheme_pool()
    assert len(pool) == len(set(pool)) == 96
    assert len({s.font for s in pool}) == len(FONT_NAMES)
    assert {s.white for s in pool} == set(WHITE_STYLES) and {s.dot_style for s in pool} == set(DOT_STYLES)
    assert min(s.weight for s in pool) < 0 < max(s.weight for s in pool)


@pytest.mark.parametrize("finish", [f for f in FINISHES if f != "flat"])
@pytest.mark.parametrize("kind", [ONE_MAN, FIVE_PIN, EAST])
def test_a_finish_changes_the_ink_and_only_near_it(finish: str, kind: int) -> None:
    flat = draw_face(kind, DEFAULT).astype(int)
    finished = draw_face(kind, replace(DEFAULT, finish=finish)).astype(int)
    changed = np.abs(finished - flat).max(axis=2) > 12
    assert changed.mean() > 0.01, f"{finish} leaves kind {kind} as it was"
    assert not changed[:, :6].any(), f"{finish} marks the bare face far from the ink (its left margin)"


@pytest.mark.parametrize("finish", FINISHES)
def test_a_blank_white_stays_blank_under_every_finish(finish: str) -> None:
    blank = replace(DEFAULT, white="blank")
    assert np.array_equal(draw_face(WHITE, blank), draw_face(WHITE, replace(blank, finish=finish)))


def test_the_pool_has_every_finish_and_refuses_unknown_ones() -> None:
    assert {s.finish for s in scheme_pool()} == set(FINISHES)
    with pytest.raises(ValueError, match="finish"):
        replace(DEFAULT, finish="chrome")
