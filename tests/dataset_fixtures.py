"""Small generated photos with known boxes, for the dataset, registry and retraining tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

# (class name in mjsnap, colour) of the three 'tiles' every generated photo shows
TILES = (("1m", (200, 30, 30)), ("5p", (30, 160, 30)), ("C", (30, 30, 200)))


def photo(seed: int, size: tuple[int, int] = (160, 120)) -> tuple[Image.Image, list[tuple[str, tuple[int, int, int, int]]]]:
    """A photo with its own background texture and three coloured boxes; returns it and (name, x1 y1 x2 y2) boxes."""
    rng = np.random.default_rng(seed)
    width, height = size
    # A coarse random pattern scaled up: each seed gets a different low-frequency look (distinct perceptual hashes).
    coarse = rng.integers(60, 230, (4, 4, 3), dtype=np.uint8)
    image = Image.fromarray(coarse).resize(size, Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(image)
    boxes = []
    for j, (name, colour) in enumerate(TILES):
        x, y = 10 + 48 * j, int(rng.integers(8, height - 60))
        draw.rectangle([x, y, x + 30, y + 42], fill=colour, outline=(0, 0, 0))
        boxes.append((name, (x, y, x + 30, y + 42)))
    return image, boxes


def near_copy(image: Image.Image, shift: int = 2, brighten: int = 6) -> Image.Image:
    """The same scene a moment later: moved by a few pixels, a little brighter, JPEG-recompressed."""
    pixels = np.asarray(image).astype(np.int16)
    pixels = np.roll(pixels, (shift, shift), axis=(0, 1)) + brighten
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


def yolo_line(index: int, box, size) -> str:
    (x1, y1, x2, y2), (w, h) = box, size
    return f"{index} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"


def write_yolo_dataset(root: Path, splits: dict[str, int], seed: int = 0) -> Path:
    """An mjsnap-layout dataset (data.yaml, images/<split>, labels/<split>) of generated photos."""
    from mjsnap.labels import data_yaml_text
    from scoring.tiles import CLASS_NAMES

    root = Path(root)
    counter = seed * 1000
    for split, count in splits.items():
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
        for _ in range(count):
            image, boxes = photo(counter)
            image.save(root / "images" / split / f"p{counter}.jpg", quality=95)
            lines = [yolo_line(CLASS_NAMES.index(n), b, image.size) for n, b in boxes]
            (root / "labels" / split / f"p{counter}.txt").write_text("\n".join(lines) + "\n")
            counter += 1
    (root / "data.yaml").write_text(data_yaml_text())
    return root


def synthetic_hand_photos(folder: Path, seed: int, count: int, max_tilt: float) -> list:
    """`count` photos of the synthetic generator (our own drawn faces only, 640-800 px), written to `folder` as PNGs,
    with their true boxes and classes (vision.evaluate.LabelledImage)."""
    from vision import evaluate as ev
    from vision.synth.scene import SynthOptions, make_sample

    options = SynthOptions(imgsz_min=640, imgsz_max=800, max_tilt=max_tilt, tileart=None)
    photos = []
    for index in range(count):
        sample = make_sample(seed, index, options)
        path = folder / f"{index}.png"
        Image.fromarray(sample.image).save(path)
        photos.append(ev.LabelledImage(path, np.array([t.box for t in sample.tiles]).reshape(-1, 4),
                                       np.array([t.cls for t in sample.tiles])))
    return photos
