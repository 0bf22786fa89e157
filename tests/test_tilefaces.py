"""render_face: our own drawn tile pictures, available without ../shared."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES
from vision.tilefaces import STYLES, render_face


@pytest.mark.parametrize("style", STYLES)
def test_every_class_has_its_own_face(style: str) -> None:
    faces = [np.asarray(render_face(k, style, (60, 80)), dtype=np.float32) for k in range(len(CLASS_NAMES))]
    assert all(f.shape == (80, 60, 3) for f in faces)
    for (a, fa), (b, fb) in itertools.combinations(enumerate(faces), 2):
        diff = np.abs(fa - fb).mean()
        assert diff > 3.0, f"{style}: {CLASS_NAMES[a]} and {CLASS_NAMES[b]} look the same (mean diff {diff:.1f})"


def test_faces_have_ink_and_sizes_are_honoured() -> None:
    img = render_face(CLASS_NAMES.index("C"), "default", (33, 44))
    assert img.size == (33, 44) and img.mode == "RGB"
    red = np.asarray(render_face(CLASS_NAMES.index("C"), "default"), dtype=np.int32)
    assert ((red[..., 0] - red[..., 1]) > 100).mean() > 0.05  # 中 is drawn in red ink
    assert np.asarray(render_face(0, "default", (240, 320))).shape == (320, 240, 3)


@pytest.mark.parametrize(
    ("kind", "style", "size", "message"),
    [(36, "default", (60, 80), "out of range"), (-1, "default", (60, 80), "out of range"),
     (0, "no-such-style", (60, 80), "unknown tile style"), (0, "default", (2, 80), "too small")],
)
def test_bad_arguments_are_refused(kind: int, style: str, size: tuple[int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_face(kind, style, size)
