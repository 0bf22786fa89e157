"""A tap on the Score page's photo means the tile under it (tests/test_browser.py taps one in a real browser)."""

from __future__ import annotations

import pytest

from mjsnap.app.draft import DraftTile
from mjsnap.app.score_page import tile_at


def tile(box, place="hand") -> DraftTile:
    return DraftTile(kind=0, place=place, box=box, conf=0.9, detected=0)


TILES = [tile((100, 100, 150, 170)), tile((150, 100, 200, 170)), tile((0, 0, 400, 400), "aside"),
         tile((120, 110, 140, 160), "deleted"), tile(None)]


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ((125, 130), 0),  # inside tile 0 (the deleted box over it is not drawn, so not meant)
        ((175, 130), 1),
        ((150, 130), 0),  # on the shared edge: the first of two equal boxes
        ((300, 300), 2),  # only the large stray box holds it
        ((500, 500), None),
    ],
)
def test_a_tap_means_the_smallest_drawn_box_under_it(point, expected):
    assert tile_at(TILES, *point) == expected
