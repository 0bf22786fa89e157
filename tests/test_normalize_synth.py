"""The normalizer on the synthetic generator's photos laid out by the convention (``mjsnap synth --layout
conventional``), fed the true labelled boxes (hand, discards and clutter): the grouping alone is measured.
benchmarks/normalizer.py runs 500 photos of both streams and the shipped detector; this test runs fewer so CI stays
quick, against a floor under the figure it reaches."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.detections import Detections
from vision.normalize import read_hand
from vision.normalize.evaluate import compare

PHOTOS = 80
SEED = 4242
MIN_DECIDABLE = 0.96  # 77 of 77 in-frame photos read right (2026-12-02); the issue asks 0.99 of 500


def _truth(sample):
    sideways = Counter(t.meld for t in sample.tiles if t.role == "meld" and t.sideways)
    stacked = sum(1 for i, m in enumerate(sample.hand.melds) if m.type == "kong_added" and sideways[i] >= 2)
    return sample.hand.concealed, [(m.type, m.tiles) for m in sample.hand.melds], sample.hand.win_tile, stacked


@pytest.mark.slow
def test_generated_photos_are_read_from_their_true_boxes():
    from vision.synth.scene import SynthOptions, make_sample

    options = SynthOptions(layout="conventional")
    scored = decidable = 0
    for index in range(PHOTOS):
        sample = make_sample(SEED, index, options)
        if not sample.scene["hand_tiles_labelled"]:
            continue
        tiles = sample.tiles
        dets = Detections(np.array([t.box for t in tiles]), np.ones(len(tiles)), np.array([t.cls for t in tiles]))
        read = read_hand(dets, sample.image.shape[1::-1])
        scored += 1
        decidable += compare(read, *_truth(sample)).decidable
    assert scored >= PHOTOS * 0.9
    assert decidable / scored >= MIN_DECIDABLE, f"{decidable}/{scored} read right"
