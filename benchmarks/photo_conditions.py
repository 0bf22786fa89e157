"""How the tile reader holds up when the same hand is photographed in worse conditions than the labelled set's.

Each labelled photo is changed the way a phone at a real table changes it, boxes kept, and re-saved as JPEG
(quality 95, vision.turned.write_derived); each model reads every changed set through `TileDetector`, as the
product does, scored by `vision.evaluate` as `mjsnap eval`. The conditions (CONDITIONS) are photometric: light
colour and level, focus, motion, compression. Tile size and camera angle have their own benchmarks
(tile_scale.py, the generator's tilt); turned photos orientation.py.

    .venv/bin/python benchmarks/photo_conditions.py --model models/current [--model work/model_X] \
        [--data datasets/cmd.yaml] [--limit N] [--condition warm_light ...] [--out benchmarks/results]

Writes photo_conditions.json and photo_conditions.md to --out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.derived_sets import add_common_arguments, models_of, read_row, report_head, write_report  # noqa: E402
from vision import evaluate as ev  # noqa: E402
from vision.turned import write_derived  # noqa: E402

def _gains(rgb: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(rgb.astype(np.float32) * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def _dim(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A third of the light, and the sensor noise a phone adds when it lifts a dark picture back up."""
    dark = (rgb.astype(np.float32) / 255.0) ** 1.6 * 255.0 * 0.55
    return np.clip(dark + rng.normal(0, 5, rgb.shape), 0, 255).astype(np.uint8)


def _motion(rgb: np.ndarray, length: int = 9) -> np.ndarray:
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length  # the phone moved sideways while the shutter was open
    return cv2.filter2D(rgb, -1, kernel, borderType=cv2.BORDER_REFLECT)


def _jpeg(rgb: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


# name -> (what it stands for, change of an RGB photo; rng for the ones that draw noise)
CONDITIONS: dict[str, tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    "as_labelled": ("the photo itself, re-saved", lambda rgb, rng: rgb),
    "warm_light": ("tungsten light, white balance left (red x1.25, blue x0.65)", lambda rgb, rng: _gains(rgb, (1.25, 1.0, 0.65))),
    "cool_light": ("shade or a cold LED (red x0.8, blue x1.2)", lambda rgb, rng: _gains(rgb, (0.8, 1.0, 1.2))),
    "dim": ("a dim room: darker, gamma 1.6, sensor noise sigma 5", _dim),
    "bright": ("overexposed by 1.6x: white faces burn out", lambda rgb, rng: _gains(rgb, (1.6, 1.6, 1.6))),
    "soft_focus": ("out of focus: Gaussian blur sigma 1.5 px (at 640 px)",
                   lambda rgb, rng: cv2.GaussianBlur(rgb, (0, 0), 1.5 * max(rgb.shape[:2]) / 640)),
    "motion_blur": ("the phone moved: 9 px sideways smear", lambda rgb, rng: _motion(rgb)),
    "heavy_jpeg": ("sent through a chat app: JPEG quality 25", lambda rgb, rng: _jpeg(rgb, 25)),
}


def write_condition_set(images: list[ev.LabelledImage], condition: str, folder: Path, seed: int) -> list[ev.LabelledImage]:
    rng = np.random.default_rng(seed)  # photos are changed in the list's order: the same noise every run
    change = CONDITIONS[condition][1]
    return write_derived(images, lambda rgb, xyxy: (change(rgb, rng), xyxy), folder)


def to_markdown(report: dict) -> str:
    lines = [
        "# Tile reading in worse photo conditions",
        "",
        f"{report['date']}: {report['data']} ({report['images']} photos, {report['tiles']} tiles), each photo changed "
        "as below, boxes kept, re-saved as JPEG (quality 95); `benchmarks/photo_conditions.py`. Read by the product's "
        f"TileDetector at confidence {report['conf']}, scored as `mjsnap eval`.",
        "",
        "| condition | what it stands for |",
        "|---|---|",
        *[f"| {name} | {CONDITIONS[name][0]} |" for name in report["conditions"]],
        "",
        "| model | condition " + ev.READING_COLUMNS[0],
        "|---|---" + ev.READING_COLUMNS[1],
        *[f"| {row['model']} | {row['condition']} | {ev.reading_cells(row)} |" for row in report["rows"]],
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--condition", action="append", choices=sorted(CONDITIONS), help="default: all of them")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name", default="photo_conditions", help="results file stem")
    args = parser.parse_args(argv)
    conditions = args.condition or list(CONDITIONS)
    images = ev.labelled_images(args.data, "val", args.limit)
    rows = []
    with tempfile.TemporaryDirectory(prefix="mjsnap-conditions-") as tmp:
        for condition in conditions:
            changed = write_condition_set(images, condition, Path(tmp) / condition, args.seed)
            for model in models_of(args):
                row, report = read_row(model, changed, args.conf, condition, condition=condition)
                rows.append({**row, "top_confusions": report.model_dump().get("top_confusions", [])[:8]})
    result = {**report_head(args.data, images), "conf": args.conf, "conditions": conditions, "rows": rows}
    write_report(args.out, args.name, result, to_markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
