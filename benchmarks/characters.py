"""The character recognizer at the operating point: how many tiles it is asked about, what it costs, what it changes.

For each model directory and dataset, every photo is detected twice in one run, with the recognizer
(vision.twostage.characters) and without it (``TileDetector(characters=False)``), at the product's confidence.
Reported per photo: tiles detected, tiles the recognizer was asked about, median and p90 detect() time; and the
tile accuracy of both at that confidence (vision.evaluate's matching), so cost and gain come from the same photos.

    .venv/bin/python benchmarks/characters.py --model models/current --data datasets/cmd.yaml \
        [--model work/model_fold_gleitz_chars --data work/synth_gleitz/data.yaml] [--limit 120]

Pairs are given as repeated --model/--data (the i-th model reads the i-th dataset). Writes
benchmarks/results/characters.json and characters.md.
"""

from __future__ import annotations

import argparse
import json
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


def measure(model: Path, data: Path, limit: int | None) -> dict:
    images = labelled_images(data, "val", limit)
    with_reader, without = TileDetector(model), TileDetector(model, characters=False)
    if with_reader.stages is None or with_reader.stages.characters is None:
        raise SystemExit(f"{model} has no character recognizer (characters/ and meta 'characters')")
    stages = with_reader.stages
    times: dict[str, list[float]] = {"with": [], "without": []}
    predictions: dict[str, dict[Path, Prediction]] = {"with": {}, "without": {}}
    asked, detected = [], []
    for image in images:
        loaded = read_image(image.path)
        for name, detector in (("with", with_reader), ("without", without)):
            start = time.perf_counter()
            detections = detector.detect(loaded)
            times[name].append(1000 * (time.perf_counter() - start))
            predictions[name][image.path] = Prediction(detections.xyxy, detections.confidence, detections.class_id)
        boxes, det_conf = stages.find_tiles(loaded)
        plain = without.stages.classify(loaded.pixels, boxes)
        asked.append(int(stages.asks_reader(plain, det_conf).sum()))
        detected.append(len(predictions["without"][image.path].class_id))
    reports = {name: evaluate(lambda path, name=name: predictions[name][path], images, stages.conf, str(model), str(data))
               for name in times}
    return {
        "model": str(model), "data": str(data), "photos": len(images),
        "tiles_detected_per_photo": round(float(np.mean(detected)), 2),
        "tiles_asked_per_photo": round(float(np.mean(asked)), 2),
        "photos_with_a_tile_asked": int(sum(a > 0 for a in asked)),
        "ms": {name: {"median": round(float(np.median(t)), 1), "p90": round(float(np.percentile(t, 90)), 1)}
               for name, t in times.items()},
        "tile_accuracy": {name: report.tile_accuracy for name, report in reports.items()},
        "tile_errors": {name: report.tile_errors for name, report in reports.items()},
    }


def markdown(result: dict) -> str:
    lines = [
        f"# Character recognizer at the operating point ({result['created']})",
        "",
        f"{result['cpu_count']} CPU cores, load average before/after {result['load_average_before_after']}. Each photo "
        "detected with and without the recognizer in one run (`benchmarks/characters.py`); *asked*: tiles the classifier "
        "is unsure of (best class under the gate) that likely show a character and that a reading could keep.",
        "",
        "| model | data | photos | tiles per photo | asked per photo | photos with one asked | detect ms with / without (median, p90) | tile accuracy with / without | tile errors with / without |",
        "|---|---|---:|---:|---:|---:|---|---|---|",
    ]
    for row in result["runs"]:
        ms = row["ms"]
        lines.append(
            f"| {row['model']} | {row['data']} | {row['photos']} | {row['tiles_detected_per_photo']} | "
            f"{row['tiles_asked_per_photo']} | {row['photos_with_a_tile_asked']} | "
            f"{ms['with']['median']} / {ms['without']['median']} ({ms['with']['p90']} / {ms['without']['p90']}) | "
            f"{row['tile_accuracy']['with']:.4f} / {row['tile_accuracy']['without']:.4f} | "
            f"{row['tile_errors']['with']} / {row['tile_errors']['without']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, action="append", required=True)
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--limit", type=int, default=None, help="only the first N photos of each dataset")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    if len(args.model) != len(args.data):
        parser.error("give one --data per --model")
    load_before = os.getloadavg()
    runs = []
    for model, data in zip(args.model, args.data):
        runs.append(measure(model, data, args.limit))
        print(json.dumps(runs[-1]), flush=True)
    result = {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "cpu_count": os.cpu_count(),
              "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)], "runs": runs}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "characters.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (args.out / "characters.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))


if __name__ == "__main__":
    main()
