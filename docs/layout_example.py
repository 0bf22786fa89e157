"""Render docs/layout-example.png: a generated hand photo (vision.synth, stream 31 photo 29) with the normalizer's
reading drawn on it (concealed row, winning tile, each meld), cropped to the tiles.

    .venv/bin/python docs/layout_example.py

The picture in the docs was drawn at commit b338ee5; the generator has drawn other photos for the same stream since,
so the script run on a later commit draws another hand (`git worktree add /tmp/b338ee5 b338ee5` to redraw it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.detections import Detections  # noqa: E402
from vision.normalize import read_hand  # noqa: E402
from vision.synth.scene import make_sample  # noqa: E402

COLOURS = {"concealed": (40, 110, 255), "win": (235, 40, 40), "meld": (255, 190, 0), "ignored": (150, 150, 150)}


def main() -> None:
    sample = make_sample(31, 29)
    tiles = sample.tiles
    dets = Detections(np.array([t.box for t in tiles]), np.ones(len(tiles)), np.array([t.cls for t in tiles]))
    hand = read_hand(dets, sample.image.shape[1::-1])
    image = Image.fromarray(sample.image).convert("RGB")
    scale = 2
    image = image.resize((image.width * scale, image.height * scale), Image.LANCZOS)
    draw = ImageDraw.Draw(image)
    for tile in hand.tiles:
        x1, y1, x2, y2 = (v * scale for v in tile.box)
        draw.rectangle((x1, y1, x2, y2), outline=COLOURS[tile.group], width=3)
        label = "win" if tile.group == "win" else (f"meld {tile.meld}" if tile.group == "meld" else "")
        if label:
            draw.text((x1 + 2, y2 + 2), label, fill=COLOURS[tile.group])
    boxes = dets.xyxy * scale
    lo = np.maximum(boxes[:, :2].min(axis=0) - 30, 0)
    hi = np.minimum(boxes[:, 2:].max(axis=0) + 40, [image.width, image.height])
    image = image.crop((*lo.astype(int), *hi.astype(int)))
    out = REPO / "docs" / "layout-example.png"
    image.save(out, optimize=True)
    data = hand.to_json()
    print(out, data["concealed"], data["melds"], data["win_tile"], [w["code"] for w in data["warnings"]])


if __name__ == "__main__":
    main()
