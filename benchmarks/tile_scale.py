"""How the tile reader holds up as the hand gets smaller in the photo (a photo taken from farther away).

Each labelled photo is placed, at its own size, on a synthetic table background `scale` times as wide and as high
(felt, wood, cloth, desk... from vision.synth.background, at a random place drawn from the seed), so its tiles take
1/scale of the photo's width as in a photo taken `scale` times as far. The labels move with it. Each model reads the
same derived photos through `TileDetector` (the product's path: working image of at most 1600 px, the detector's
letterbox, the crop classifier) and is scored by `vision.evaluate`, as `mjsnap eval`: once as the product reads them,
looking again at a hand that is small in the photo (vision.twostage.zoom), and once with one look only.

    .venv/bin/python benchmarks/tile_scale.py --model models/current [--model work/model_X] \
        [--data datasets/cmd.yaml] [--scales 1 2 3 4] [--limit N] [--out benchmarks/results]

Writes tile_scale.json and tile_scale.md to --out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from itertools import product
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.derived_sets import add_common_arguments, models_of, read_row, report_head, write_report  # noqa: E402
from vision import evaluate as ev  # noqa: E402
from vision.synth.background import random_background  # noqa: E402
from vision.turned import write_derived  # noqa: E402


def place_on_table(rgb: np.ndarray, xyxy: np.ndarray, scale: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``rgb`` pasted at a random place on a background ``scale`` times its size; its boxes moved with it."""
    height, width = rgb.shape[:2]
    if scale == 1:
        return rgb, xyxy
    canvas_h, canvas_w = round(height * scale), round(width * scale)
    _, background = random_background(rng, canvas_h, canvas_w)
    canvas = np.clip(background, 0, 255).astype(np.uint8)
    top, left = int(rng.integers(0, canvas_h - height + 1)), int(rng.integers(0, canvas_w - width + 1))
    canvas[top : top + height, left : left + width] = rgb
    return canvas, xyxy + [left, top, left, top]


def write_scaled(images: list[ev.LabelledImage], scale: float, folder: Path, seed: int) -> list[ev.LabelledImage]:
    """The derived photos (JPEG quality 95) and their YOLO labels in an ultralytics layout under ``folder``."""
    rng = np.random.default_rng(seed)
    return write_derived(images, lambda rgb, xyxy: place_on_table(rgb, xyxy, scale, rng), folder)


def median_tile_height(images: list[ev.LabelledImage]) -> float:
    """Median labelled tile height as a fraction of its photo's height."""
    from PIL import Image

    fractions = []
    for item in images:
        with Image.open(item.path) as im:
            fractions.extend(((item.xyxy[:, 3] - item.xyxy[:, 1]) / im.height).tolist())
    return float(np.median(fractions)) if fractions else 0.0


def to_markdown(report: dict) -> str:
    lines = [
        "# Tile reading as the hand gets smaller in the photo",
        "",
        f"{report['date']}: {report['data']} ({report['images']} photos, {report['tiles']} tiles), each pasted on a "
        "synthetic table background `scale` times its width and height (seed "
        f"{report['seed']}); `benchmarks/tile_scale.py`. *second look*: as the product reads (vision.twostage.zoom); "
        "*one look*: the detector's first pass only. A tile's height is given as a share of the photo's and in "
        "pixels of a 640 px input, which is roughly what the tile detector sees.",
        "",
        "| model | look | scale | tile height (of photo) | ~px at 640 " + ev.READING_COLUMNS[0],
        "|---|---|---:|---:|---:" + ev.READING_COLUMNS[1],
    ]
    for row in report["rows"]:
        lines.append(
            f"| {row['model']} | {'second look' if row['zoom'] else 'one look'} | {row['scale']:g} | "
            f"{row['tile_height']:.3f} | {row['tile_height'] * 640:.0f} | {ev.reading_cells(row)} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--scales", type=float, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if any(scale < 1 for scale in args.scales):
        parser.error("--scales must be 1 or more (the photo is pasted on a larger table)")
    images = ev.labelled_images(args.data, "val", args.limit)
    rows = []
    with tempfile.TemporaryDirectory(prefix="mjsnap-scale-") as tmp:
        for scale in args.scales:
            scaled = write_scaled(images, scale, Path(tmp) / f"x{scale:g}", args.seed)
            height = median_tile_height(scaled)
            for model, zoom in product(models_of(args), (True, False)):
                row, _ = read_row(model, scaled, args.conf, f"x{scale:g}", zoom=zoom,
                                  note="(second look)" if zoom else "(one look)", scale=scale, tile_height=height)
                rows.append({**row, "zoom": zoom})
    write_report(args.out, "tile_scale", {**report_head(args.data, images), "seed": args.seed, "rows": rows},
                 to_markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
