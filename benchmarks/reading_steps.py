"""What each of the two-stage reading steps added in 0.12.0 does, step by step, on the same photos in one run.

The steps (vision.twostage.backend): the face floor (a tile the detector is sure of is kept when the classifier doubts
its face), the extra looks (an unsure tile classified again from crops cut closer and wider) and the level view (the
tiles of slanted rows classified from a view turned level, vision.twostage.deskew), first without and then with its
growth cap (session 13: a level box much larger than the tile's own is not its box). Each photo is detected with the
steps switched on one after another, at the product's confidence; reported per configuration: tile accuracy and tile
errors (vision.evaluate's matching: missed, misread, extra), photos read without a tile error, and the median and p90
detect() time. The model's meta gives the floor and the extra looks; "none" switches all three off (as 0.11.0 read).

    .venv/bin/python benchmarks/reading_steps.py --model work/model_0.12.0 --data datasets/cmd.yaml \
        [--model work/model_fold_gleitz_floor --data work/synth_gleitz/data.yaml] [--limit 120] [--out NAME]

Pairs are given as repeated --model/--data (the i-th model reads the i-th dataset). Writes
benchmarks/results/NAME.json and NAME.md (default reading_steps).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.detector import TileDetector  # noqa: E402
from vision.evaluate import Prediction, evaluate, labelled_images  # noqa: E402
from vision.imageio import read_image  # noqa: E402
from vision.twostage.deskew import MAX_GROWTH  # noqa: E402

STEPS = ("none", "+ face floor", "+ extra looks", "+ level view", "+ growth cap")


def configured(model: Path, steps: int) -> TileDetector:
    """The model read with the first ``steps`` reading steps on (0: none of them)."""
    detector = TileDetector(model, level=steps >= 3)
    stages = detector.stages
    if stages is None:
        raise SystemExit(f"{model} is not a two-stage model")
    if steps < 1:
        stages.face_floor = 0.0
    if steps < 2:
        stages.extra_looks_below, stages.extra_looks_margins = 0.0, ()
    if steps < 4:
        stages.level_max_growth = math.inf
    return detector


def measure(model: Path, data: Path, limit: int | None) -> dict:
    images = labelled_images(data, "val", limit)
    detectors = {name: configured(model, steps) for steps, name in enumerate(STEPS)}
    stages = detectors[STEPS[-1]].stages
    times: dict[str, list[float]] = {name: [] for name in STEPS}
    predictions: dict[str, dict[Path, Prediction]] = {name: {} for name in STEPS}
    for image in images:
        loaded = read_image(image.path)
        for name, detector in detectors.items():
            start = time.perf_counter()
            detections = detector.detect(loaded)
            times[name].append(1000 * (time.perf_counter() - start))
            predictions[name][image.path] = Prediction(detections.xyxy, detections.confidence, detections.class_id)
    rows = []
    for name in STEPS:
        report = evaluate(lambda path, name=name: predictions[name][path], images, stages.conf, str(model), str(data))
        rows.append({
            "steps": name, "tile_accuracy": report.tile_accuracy, "tile_errors": report.tile_errors,
            "missed": report.missed, "misread": report.misclassified, "extra": report.extra,
            "photos_without_error": report.exact_match,
            "ms_median": round(float(np.median(times[name])), 1), "ms_p90": round(float(np.percentile(times[name], 90)), 1),
        })
    return {
        "model": str(model), "data": str(data), "photos": len(images), "version": detectors[STEPS[-1]].version,
        "backend": detectors[STEPS[-1]].backend, "face_floor": stages.face_floor,
        "extra_looks": {"below": stages.extra_looks_below, "margins": list(stages.extra_looks_margins)},
        "rows": rows,
    }


def markdown(result: dict) -> str:
    lines = [
        f"# Two-stage reading steps, one after another ({result['created']})",
        "",
        f"{result['cpu_count']} CPU cores, load average before/after {result['load_average_before_after']}. Each photo "
        "detected with the reading steps switched on one after another, in one run (`benchmarks/reading_steps.py`), "
        "at the product's confidence. *none*: as 0.11.0 read; *face floor*: a tile the detector is sure of stays when "
        "the classifier doubts its face; *extra looks*: an unsure tile classified again from crops cut closer and "
        "wider; *level view*: tiles of slanted rows classified from a view turned level (as 0.12.0 read in session "
        f"12); *growth cap*: a level box over {MAX_GROWTH}x the tile's own box is not that tile's (two tiles boxed as "
        "one), and the tile is classified from the photo instead (session 13).",
        "",
    ]
    for entry in result["results"]:
        lines += [
            f"## {entry['data']} ({entry['photos']} photos), {entry['model']} (version {entry['version']}, "
            f"{entry['backend']}; face floor {entry['face_floor']}, extra looks {entry['extra_looks']})",
            "",
            "| steps | tile accuracy | tile errors | missed | misread | extra | photos without an error | detect ms median | p90 |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {row['steps']} | {row['tile_accuracy']:.4f} | {row['tile_errors']} | {row['missed']} | {row['misread']} | "
            f"{row['extra']} | {row['photos_without_error']:.3f} | {row['ms_median']} | {row['ms_p90']} |"
            for row in entry["rows"]
        ]
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    args = pairs_parser(__doc__, "reading_steps").parse_args()
    run_pairs(args.model, args.data, lambda model, data: measure(model, data, args.limit), markdown, args.out)


def pairs_parser(doc: str, out: str) -> argparse.ArgumentParser:
    """Options of a benchmark that reads model/dataset pairs: repeated --model and --data, --limit, --out."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--model", type=Path, action="append", required=True)
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--limit", type=int, default=None, help="photos per image folder")
    parser.add_argument("--out", default=out, help="results name under benchmarks/results")
    return parser


def run_pairs(models: list[Path], datas: list[Path], measure_pair, to_markdown, out: str) -> None:
    """Measure each model on its dataset (printing each result as it comes) and write benchmarks/results/OUT.json
    and OUT.md, with the machine's load before and after."""
    if len(models) != len(datas):
        raise SystemExit("give one --data for each --model")
    before = [round(v, 2) for v in os.getloadavg()]
    results = []
    for model, data in zip(models, datas):
        results.append(measure_pair(model, data))
        print(json.dumps(results[-1]), flush=True)
    result = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "cpu_count": os.cpu_count(),
        "load_average_before_after": [before, [round(v, 2) for v in os.getloadavg()]],
        "results": results,
    }
    folder = REPO / "benchmarks" / "results"
    (folder / f"{out}.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (folder / f"{out}.md").write_text(to_markdown(result) + "\n", encoding="utf-8")
    print(to_markdown(result))


if __name__ == "__main__":
    main()
