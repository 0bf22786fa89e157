"""The label page by touch: a tap on the photo picks the box under it or adds one there, arrows move and resize the
picked box, and the photo is shown around its tiles so that a tile is large enough to tap on a phone. (The tap in a
real browser: tests/test_browser.py.)"""

from __future__ import annotations


import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from dataset_fixtures import photo  # noqa: E402
from test_dataset_label_page import open_page  # noqa: E402
from mjsnap.app import label_page  # noqa: E402
from mjsnap.app.label_page import box_added_at, box_at, draw_boxes, nudged, tiles_region  # noqa: E402

def row(cls: str, x1: float, y1: float, x2: float, y2: float) -> dict:
    return {"cls": cls, "x1": x1, "y1": y1, "x2": x2, "y2": y2}


ROW_OF_TILES = [row("1m", 100, 200, 140, 260), row("2m", 140, 200, 180, 260), row("3m", 180, 200, 220, 260)]


@pytest.mark.parametrize(
    ("rows", "point", "expected"),
    [
        (ROW_OF_TILES, (120, 230), 0),
        (ROW_OF_TILES, (215, 201), 2),
        (ROW_OF_TILES, (140, 230), 0),  # on the edge two boxes share: the first of the equal ones
        (ROW_OF_TILES, (90, 230), None),  # beside the row
        (ROW_OF_TILES, (120, 270), None),  # under it
        # a tile's box inside a large stray one: the tile is meant
        ([row("P", 0, 0, 500, 500), row("5p", 200, 200, 240, 260)], (220, 230), 1),
        ([row("5p", 200, 200, 240, 260), row("P", 0, 0, 500, 500)], (220, 230), 0),
        ([row("5p", "", 200, 240, 260), row("C", 0, 0, 500, 500)], (220, 230), 1),  # a cell being typed
        ([], (1, 1), None),
    ],
)
def test_a_tap_picks_the_smallest_box_under_it(rows, point, expected):
    assert box_at(rows, *point) == expected


@pytest.mark.parametrize(
    ("rows", "point", "size", "expected"),
    [
        # the median size of the photo's boxes (40 x 60), centred on the tap, the last box's class
        (ROW_OF_TILES, (300, 230), (1000, 800), row("3m", 280.0, 200.0, 320.0, 260.0)),
        # at the photo's corner it is moved inside, not cut
        (ROW_OF_TILES, (5, 3), (1000, 800), row("3m", 0.0, 0.0, 40.0, 60.0)),
        (ROW_OF_TILES, (999, 799), (1000, 800), row("3m", 960.0, 740.0, 1000.0, 800.0)),
        # no box yet: a twelfth of the photo's width by a ninth, the first class
        ([], (600, 450), (1200, 900), row("1m", 550.0, 383.3, 650.0, 516.7)),
        # boxes larger than a tiny photo are cut to it
        ([row("C", 0, 0, 400, 400)], (10, 10), (50, 30), row("C", 0.0, 0.0, 50.0, 30.0)),
    ],
)
def test_a_tap_beside_every_box_adds_one_there(rows, point, size, expected):
    assert box_added_at(rows, *point, *size) == expected


BOX = row("5p", 100, 100, 140, 180)  # 40 x 80: a step is 5 across, 10 down


@pytest.mark.parametrize(
    ("start", "move", "expected"),
    [
        (BOX, "left", (95, 100, 135, 180)),
        (BOX, "right", (105, 100, 145, 180)),
        (BOX, "up", (100, 90, 140, 170)),
        (BOX, "down", (100, 110, 140, 190)),
        (BOX, "bigger", (97.5, 95, 142.5, 185)),
        (BOX, "smaller", (102.5, 105, 137.5, 175)),
        # at the photo's edge a box stops, keeping its size
        (row("5p", 2, 100, 42, 180), "left", (0, 100, 40, 180)),
        (row("5p", 960, 100, 1000, 180), "right", (960, 100, 1000, 180)),
        (row("5p", 100, 0, 140, 80), "up", (100, 0, 140, 80)),
        (row("5p", 100, 715, 140, 795), "down", (100, 720, 140, 800)),
        # grown against the edge it is cut there; shrunk it keeps an area
        (row("5p", 0, 0, 40, 80), "bigger", (0, 0, 42.5, 85)),
        (row("5p", 100, 100, 105, 104), "smaller", (100.3, 100, 104.7, 104)),
    ],
)
def test_arrows_move_and_resize_the_picked_box_inside_the_photo(start, move, expected):
    moved = nudged(start, move, 1000, 800)
    assert tuple(moved[k] for k in ("x1", "y1", "x2", "y2")) == pytest.approx(expected)
    assert moved["cls"] == start["cls"]


def test_a_row_being_typed_is_not_moved():
    typing = row("5p", "1", "", 9, 9)
    assert nudged(typing, "left", 100, 100) == typing


@pytest.mark.parametrize(
    ("rows", "size", "expected"),
    [
        # around the boxes with a margin of one and a half tiles (90 px: the median height is 60)
        (ROW_OF_TILES, (1000, 800), (10, 110, 311, 351)),
        # cut at the photo's edges
        ([row("1m", 10, 10, 50, 70)], (100, 90), (0, 0, 100, 90)),
        ([], (640, 480), (0, 0, 640, 480)),
    ],
)
def test_the_photo_is_shown_around_its_tiles(rows, size, expected):
    assert tiles_region(rows, *size) == expected


def test_the_picture_shows_the_region_and_marks_the_picked_box():
    image = photo(1)[0].resize((1000, 800))
    rows = [row("1m", 400, 300, 450, 370), row("2m", 450, 300, 500, 370)]
    left, top, right, bottom = tiles_region(rows, image.width, image.height)
    assert (left, top, right, bottom) == (295, 195, 606, 476)
    shown = draw_boxes(image, rows, selected=1, region=(left, top, right, bottom))
    assert shown.size == (right - left, bottom - top)  # small enough: not scaled
    # the picked box's outline is orange, the other's green, each where its box lies within the region
    assert shown.getpixel((499 - left, 350 - top)) == (240, 170, 0)
    assert shown.getpixel((400 - left, 350 - top)) == (40, 170, 80)


def test_a_large_photo_is_shown_at_most_display_side():
    image, _ = photo(1)
    big = image.resize((4000, 3000))
    shown = draw_boxes(big, [row("1m", 1000, 1000, 1200, 1300)], selected=0)
    assert max(shown.size) == label_page.DISPLAY_SIDE


@pytest.fixture
def page(tmp_path, monkeypatch) -> AppTest:
    folder = tmp_path / "photos"
    folder.mkdir()
    photo(1)[0].save(folder / "hand.jpg")
    return open_page(tmp_path, monkeypatch, folder)


def _rows(at: AppTest) -> list[dict]:
    return at.session_state["lp"]["rows"]["hand"]


def test_the_arrow_buttons_move_the_picked_box_and_keep_it_picked(page):
    page.button(key="lp_add").click().run()
    page.button(key="lp_add").click().run()
    first, second = _rows(page)
    page.button(key="lp_nudge_right").click().run()
    page.button(key="lp_nudge_down").click().run()
    page.button(key="lp_nudge_bigger").click().run()
    assert not page.exception, page.exception
    moved = _rows(page)
    assert moved[0] == first  # only the picked box (the one just added) moved
    w, h = second["x2"] - second["x1"], second["y2"] - second["y1"]
    assert moved[1]["x1"] == pytest.approx(second["x1"] + w / 8 - w / 16, abs=0.1)
    assert moved[1]["y2"] == pytest.approx(second["y2"] + h / 8 + h / 16, abs=0.1)
    assert next(s for s in page.selectbox if s.key.startswith("lp_selected_")).value == 1


def test_the_whole_photo_can_be_shown(page):
    page.button(key="lp_add").click().run()
    assert page.toggle(key="lp_whole_photo").value is False
    page.toggle(key="lp_whole_photo").set_value(True).run()
    assert not page.exception, page.exception
