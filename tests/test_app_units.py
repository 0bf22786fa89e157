"""The app's pure pieces: i18n completeness, the detections overlay, the wall diagram, tile pictures."""

from __future__ import annotations

import io
import string
import typing

import numpy as np
import pytest
from PIL import Image

from mjsnap.app.draft import DraftTile
from mjsnap.app.i18n import (
    CONVENTION_NAMES,
    MELD_NAMES,
    RULESET_NAMES,
    SHAPE_NAMES,
    SPLIT_NAMES,
    STRINGS,
    XI_KINDS,
    XI_ORDERS,
    tile_name,
    tr,
)
from mjsnap.app.overlay import LOW_COLOUR, PLACE_COLOURS, draw_detections, is_low_confidence
from mjsnap.app.photo_input import samples
from mjsnap.app.wall_diagram import FIRST_GRAB, SKIPPED, _cell, draw_walls, stack_sequence
from mjsnap.dice import CONVENTIONS, wall_start
from mjsnap.labels import SPLITS
from scoring.hand import MeldType
from scoring.scorer import RULESETS
from scoring.shapes import ALL_SHAPES
from scoring.weimaque import WeimaqueOptions
from scoring.weimaque.result import XiItem


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_every_string_has_both_languages_with_the_same_placeholders(key):
    """...except ``{detail}``, the engine's English sentence, which a Chinese text may leave out."""
    zh, en = STRINGS[key]
    assert zh.strip() and en.strip()
    assert _fields(zh) - {"detail"} == _fields(en) - {"detail"}


def test_every_name_table_covers_its_domain():
    assert set(RULESET_NAMES) == set(RULESETS)
    assert set(MELD_NAMES) == {m.value for m in MeldType}
    assert set(SHAPE_NAMES) == set(ALL_SHAPES)
    assert set(CONVENTION_NAMES) == set(CONVENTIONS)
    assert set(SPLIT_NAMES) == set(SPLITS)
    assert all(f"sample_{path.stem}" in STRINGS for path in samples()) and samples()
    assert set(XI_KINDS) == set(typing.get_args(XiItem.model_fields["kind"].annotation))
    assert set(XI_ORDERS) == set(typing.get_args(WeimaqueOptions.model_fields["multiplier_order"].annotation))


def test_translator_and_tile_names():
    assert tr("en")("tile_count", n=3) == "3 tiles"
    assert tr("zh")("tile_count", n=3) == "共 3 张"
    assert tr("xx")("done") == "完成"  # an unknown language falls back to 中文
    assert (tile_name(13, "zh"), tile_name(13, "en"), tile_name(34, "en")) == ("五筒", "5 Dots", "back")


def _colour_count(image: Image.Image, colour) -> int:
    return int(np.all(np.asarray(image) == colour, axis=2).sum())


def test_overlay_draws_boxes_in_display_pixels_and_marks_doubtful_tiles():
    pixels = np.full((1000, 2000, 3), 200, dtype=np.uint8)  # working size: half of a 4000x2000 original
    sure = DraftTile(0, "hand", box=(400.0, 400.0, 800.0, 1000.0), conf=0.95, detected=0)
    doubtful = DraftTile(1, "hand", box=(2000.0, 400.0, 2400.0, 1000.0), conf=0.3, detected=1)
    deleted = DraftTile(2, "deleted", box=(3000.0, 400.0, 3400.0, 1000.0), conf=0.9, detected=2)
    image = draw_detections(pixels, (2.0, 2.0), [sure, doubtful, deleted], max_side=1000)
    assert image.size == (1000, 500)
    assert _colour_count(image, PLACE_COLOURS["hand"]) > 0
    assert _colour_count(image, LOW_COLOUR) > 0
    # the deleted tile's area (x 750..850 in display pixels) is untouched
    assert np.all(np.asarray(image)[150:240, 760:840] == 200)
    # the sure tile's left edge is at x = 400 / 2 (original->working) * 0.5 (display) = 100
    assert tuple(np.asarray(image)[200, 100]) == PLACE_COLOURS["hand"]  # (y 100..250)


def test_corrected_tiles_are_not_doubtful():
    assert is_low_confidence(DraftTile(1, "hand", box=(0, 0, 1, 1), conf=0.3, detected=1))
    assert not is_low_confidence(DraftTile(5, "hand", box=(0, 0, 1, 1), conf=0.3, detected=1))
    assert not is_low_confidence(DraftTile(5, "hand"))


def test_wall_diagram_marks_skipped_stacks_and_the_first_grab():
    plan = wall_start("shaanxi", (3, 4), (4, 5))  # 7 -> opposite; 16 stacks left in place, split grab
    order = stack_sequence(plan, 17)
    assert order[0] == (2, 1) and order[16] == (2, 17) and order[17] == (1, 1)  # then the right player's wall
    image = np.asarray(draw_walls(plan, dealer=0))
    first = [(2, 17), (1, 1)]  # the grab takes the last stack here and the first of the next wall
    for wall, stack in first:
        x1, y1, x2, y2 = _cell(wall, stack, 17)
        assert tuple(image[int((y1 + y2) / 2), int((x1 + x2) / 2)]) == FIRST_GRAB
    x1, y1, x2, y2 = _cell(2, 5, 17)
    assert tuple(image[int((y1 + y2) / 2), int((x1 + x2) / 2)]) == SKIPPED


def test_tile_pictures_are_small_pngs():
    from mjsnap.app.tile_pictures import TILE_SIZE, tile_png

    for kind, frame in ((0, "plain"), (33, "selected"), (34, "low")):
        image = Image.open(io.BytesIO(tile_png(kind, frame)))
        assert image.size == TILE_SIZE and image.format == "PNG"
    framed = np.asarray(Image.open(io.BytesIO(tile_png(5, "low"))).convert("RGB"))
    assert tuple(framed[0, TILE_SIZE[0] // 2]) == (230, 30, 30)


@pytest.mark.parametrize(("model_ms", "lang", "expected"), [
    (3765.4, "zh", "识别 4126 ms（读图 59，载入模型 3765，检测 290，整理 12）· 模型 0.18.8"),
    (0.01, "zh", "识别 4126 ms（读图 59，检测 290，整理 12）· 模型 0.18.8"),
    (3765.4, "en", "Read in 4126 ms (decode 59, load the model 3765, detect 290, arrange 12) · model 0.18.8"),
])
def test_the_timings_name_the_models_loading_on_the_photo_that_loaded_it(model_ms, lang, expected):
    from types import SimpleNamespace

    from mjsnap.app.score_page import timings_caption

    ms = {"decode": 59.2, "model": model_ms, "detect": 290.1, "read": 12.3, "total": 4126.0}
    assert timings_caption(tr(lang), SimpleNamespace(ms=ms, model_version="0.18.8")) == expected
