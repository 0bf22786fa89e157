"""The convention measures of generated layouts (vision.synth.convention) that the normalizer benchmark splits by."""

from __future__ import annotations

import pytest

from vision.synth.convention import convention_breaks


@pytest.mark.parametrize(
    "win_gap, meld_gap, stray_gap, breaks",
    [
        (0.5, 0.6, 2.0, []),
        (None, None, None, []),  # a 13-tile hand, no melds, nothing else on the table
        (0.05, 0.6, 2.0, ["win_not_set_apart"]),
        (0.5, 0.2, 0.4, ["meld_too_close", "stray_near_hand"]),
    ],
)
def test_convention_breaks(win_gap, meld_gap, stray_gap, breaks):
    scene = {"win_gap": win_gap, "meld_gap": meld_gap, "stray_gap": stray_gap}
    assert convention_breaks(scene) == breaks


def test_generated_scenes_record_their_layout_gaps():
    from vision.synth.scene import make_sample

    scene = make_sample(2026, 0).scene
    assert {"win_gap", "meld_gap", "stray_gap"} <= set(scene)
    assert all(scene[k] is None or scene[k] >= 0 for k in ("win_gap", "meld_gap", "stray_gap"))
