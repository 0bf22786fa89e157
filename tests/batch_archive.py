"""A small photo archive for the batch tests: formats, nesting, sidecars, a duplicate and three bad files."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

GOOD_PHOTOS = (
    "a.jpg", "b.PNG", "nested/c.webp", "nested/deeper/d.JPEG", "nested/e.jpg", "f_no_extension", "g.jpg",
)  # fmt: skip
DUPLICATE = ("nested/copy_of_a.jpg", "a.jpg")
BAD_FILES = {"corrupt.jpg": "unreadable_image", "text.jpg": "unreadable_image", "empty.jpg": "unreadable_image"}
SIDECAR_PHOTO = "g.jpg"
SIDECAR = {"winner": 2, "discarder": 1, "bets": [1, 0, 2, 0]}
BAD_SIDECAR_PHOTO = "nested/e.jpg"
IGNORED = ("notes.txt", ".hidden/h.jpg", "g.json", "nested/e.json")


def _image(index: int) -> Image.Image:
    # Even widths are wins for batch_fakes.pixel_scorer, odd widths are not; colours differ so levels differ.
    width = 40 + index * 3
    return Image.new("RGB", (width, 24), (30 * index % 256, 90 + 20 * index, 200 - 25 * index))


def make_archive(root: Path, n_extra: int = 0) -> Path:
    """Write the archive under ``root`` (plus ``n_extra`` more JPEGs in extra/) and return ``root``."""
    formats = {".png": "PNG", ".webp": "WEBP"}
    for index, name in enumerate(GOOD_PHOTOS):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        _image(index).save(path, format=formats.get(path.suffix.lower(), "JPEG"))
    for index in range(n_extra):
        path = root / "extra" / f"x{index:03d}.jpg"
        path.parent.mkdir(parents=True, exist_ok=True)
        _image(len(GOOD_PHOTOS) + index).save(path, format="JPEG")
    (root / DUPLICATE[0]).write_bytes((root / DUPLICATE[1]).read_bytes())
    (root / "corrupt.jpg").write_bytes((root / "a.jpg").read_bytes()[:300])
    (root / "text.jpg").write_text("this is not a photo\n")
    (root / "empty.jpg").write_bytes(b"")
    (root / "notes.txt").write_text("not a photo and not named like one\n")
    (root / ".hidden").mkdir()
    _image(0).save(root / ".hidden" / "h.jpg")
    (root / "g.json").write_text(json.dumps(SIDECAR))
    (root / "nested" / "e.json").write_text(json.dumps({"winner": 7}))
    return root
