"""Write a synthetic data set in the layout of notes/contracts.md ("Synthetic layouts"):

    DIR/images/{train,val}/NAME.jpg   DIR/labels/{train,val}/NAME.txt   DIR/layouts/{train,val}/NAME.json
    DIR/data.yaml

Photo i of seed S is always the same bytes, whichever worker makes it, so a set is reproducible from (N, S, F).
The last round(N * F) photos go to val (and a photo written into one split is removed from the other, so a second
run into the same folder with another N or F leaves no photo on both sides).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from mjsnap.labels import write_atomic
from scoring.tiles import CLASS_NAMES
from vision.synth.scene import Sample, SynthOptions, make_sample


@dataclass(frozen=True)
class WrittenPhoto:
    name: str
    split: str
    tiles: int
    seconds: float


def photo_name(seed: int, index: int) -> str:
    return f"synth_s{seed}_{index:06d}"


def split_of(index: int, n: int, val_fraction: float) -> str:
    return "val" if index >= n - round(n * val_fraction) else "train"


def jpeg_quality(seed: int, index: int) -> int:
    """Phone JPEGs range from heavily compressed to near-lossless; drawn from its own stream so scenes don't shift."""
    return int(np.random.default_rng([seed, index, 99]).integers(45, 97))


def encode_jpeg(sample: Sample, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(sample.image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def layout_json(sample: Sample, image_rel: str, seed: int) -> dict:
    h, w = sample.image.shape[:2]
    return {
        "image": image_rel,
        "width": w,
        "height": h,
        "seed": seed,
        "hand": sample.hand.to_json(),
        "tiles": [t.to_json() for t in sample.tiles],
        "scene": sample.scene,
    }


def write_photo(out: Path, seed: int, index: int, n: int, val_fraction: float, options: SynthOptions) -> WrittenPhoto:
    start = time.perf_counter()
    sample = make_sample(seed, index, options)
    name, split = photo_name(seed, index), split_of(index, n, val_fraction)
    h, w = sample.image.shape[:2]
    image_rel = f"images/{split}/{name}.jpg"
    # the photo in the other split, from a run with another --n or --val-fraction, would be the same photo on both
    # sides: removed, its image first (a label without its image is not trained on)
    other = "val" if split == "train" else "train"
    for kind, suffix in (("images", ".jpg"), ("labels", ".txt"), ("layouts", ".json")):
        (out / kind / other / f"{name}{suffix}").unlink(missing_ok=True)
    # the image last, each file whole (a temporary file moved into place): a run stopped midway leaves no image
    # without its label (trained on as a photo with no tiles) and no half-written file
    label = "".join(t.yolo_line(w, h) + "\n" for t in sample.tiles)
    write_atomic(out / "labels" / split / f"{name}.txt", label.encode(), durable=False)
    layout = json.dumps(layout_json(sample, image_rel, seed)).encode()
    write_atomic(out / "layouts" / split / f"{name}.json", layout, durable=False)
    write_atomic(out / image_rel, encode_jpeg(sample, jpeg_quality(seed, index)), durable=False)
    return WrittenPhoto(name, split, len(sample.tiles), time.perf_counter() - start)


def data_yaml(out: Path) -> str:
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES))
    return f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnc: {len(CLASS_NAMES)}\nnames:\n{names}\n"


def _init_worker() -> None:
    # One thread per worker: parallelism comes from the processes, and the machine is shared.
    cv2.setNumThreads(1)


def _init_pool_worker() -> None:
    # Stopping is the parent's to handle. A forked worker kept `mjsnap`'s SIGTERM handler (which raises
    # KeyboardInterrupt) and the KeyboardInterrupt of Ctrl-C, so the pool's own SIGTERM at its end, and any Ctrl-C,
    # printed a traceback from every worker; with SIGTERM's default they end quietly.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _init_worker()


def _job(args: tuple) -> WrittenPhoto:
    return write_photo(*args)


def write_dataset(out: Path, n: int, seed: int, val_fraction: float = 0.1, workers: int = 1,
                  options: SynthOptions | None = None) -> Iterator[WrittenPhoto]:
    """Write n photos (yielding each as it is done) and data.yaml. Existing files of the same names are replaced."""
    if n < 1:
        raise ValueError(f"--n must be at least 1, got {n}")
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"--val-fraction must be in [0, 1), got {val_fraction}")
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    for kind in ("images", "labels", "layouts"):
        for split in ("train", "val"):
            (out / kind / split).mkdir(parents=True, exist_ok=True)
    (out / "data.yaml").write_text(data_yaml(out))
    jobs = [(out, seed, i, n, val_fraction, options or SynthOptions()) for i in range(n)]
    if workers == 1:
        _init_worker()
        for job in jobs:
            yield _job(job)
        return
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with get_context("fork").Pool(workers, initializer=_init_pool_worker) as pool:
        yield from pool.imap(_job, jobs, chunksize=4)
