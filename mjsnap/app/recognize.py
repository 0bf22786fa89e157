"""Photo -> detections -> read hand, with the model loaded once per server process."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from mjsnap.paths import MODELS_DIR

if TYPE_CHECKING:
    from vision.normalize import ReadHand


@dataclass(frozen=True)
class Reading:
    """What the photo gave: upright working pixels, the original size, the read hand and how long each step took."""

    pixels: np.ndarray
    to_original: tuple[float, float]
    width: int
    height: int
    read: ReadHand
    model_version: str
    ms: dict[str, float]


def model_dir() -> Path:
    """The shipped model, or $MJSNAP_MODEL_DIR."""
    return Path(os.environ.get("MJSNAP_MODEL_DIR", MODELS_DIR / "current"))


@st.cache_resource(show_spinner=False, max_entries=1)
def load_detector(path: str, stamp: tuple[int, int] | None = None):
    """One TileDetector for the whole server (every session shares it), loaded again when the model folder holds
    another model (`stamp`): a model promoted while the app runs reads the next photo, without a restart. One entry:
    the replaced model's networks are let go."""
    from vision.detector import TileDetector

    return TileDetector(Path(path))


def current_detector():
    """The TileDetector of the model that is in model_dir() now: `mjsnap promote` and `rollback` swap the folder,
    and a changed reading setting rewrites meta.json, either of which gives a new vision.detector.model_stamp."""
    from vision.detector import model_stamp

    folder = model_dir()
    return load_detector(str(folder), model_stamp(folder))


def read_photo(data: bytes) -> Reading:
    """Decode, detect and arrange one photo. Raises ImageReadError (not a photo) or ModelNotFoundError."""
    from vision.imageio import read_image
    from vision.normalize import read_hand

    start = time.perf_counter()
    loaded = read_image(data)
    decoded = time.perf_counter()
    detector = current_detector()
    loaded_model = time.perf_counter()
    detections = detector.detect(loaded)
    detected = time.perf_counter()
    read = read_hand(detections, (loaded.width, loaded.height))
    done = time.perf_counter()
    ms = {
        "decode": (decoded - start) * 1000,
        "model": (loaded_model - decoded) * 1000,
        "detect": (detected - loaded_model) * 1000,
        "read": (done - detected) * 1000,
    }
    ms["total"] = (done - start) * 1000
    return Reading(loaded.pixels, loaded.to_original, loaded.width, loaded.height, read, detector.version, ms)
