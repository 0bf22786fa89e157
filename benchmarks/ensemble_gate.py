"""What reading only the doubted tiles with an ensemble's other classifiers keeps and saves (meta classifier.ensemble_below).

A two-stage model with classifier.ensemble averages its classifiers (vision.twostage.backend). With ensemble_below
under 1, the other classifiers read only the tiles whose best class the first classifier gives less than that. Each
photo is detected with the first classifier alone, with each gate, and with every classifier on every tile, one
after another in one run (so the machine's speed is the same for all), at the product's confidence. Reported per
configuration: tile accuracy and errors (vision.evaluate's matching: missed, misread, extra), photos read without a
tile error, classifier batches and crops run per photo (counts the machine's speed does not change: with batches
padded to the export's size, as ONNX Runtime needs, every batch costs the same; an OpenVINO network runs a short
batch short, so its crops count the work) and the median and p90 detect() time. With --padded, each reading is
also run with padded batches, as every backend ran them before session 17.

    .venv/bin/python benchmarks/ensemble_gate.py --model models/current --data datasets/cmd.yaml \
        [--model work/gate/pair --data datasets/cmd.yaml] [--below 0.6 --below 0.9] [--padded] [--limit 120] [--out NAME]

Pairs are given as repeated --model/--data (the i-th model reads the i-th dataset). Writes
benchmarks/results/NAME.json and NAME.md (default ensemble_gate).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.reading_steps import pairs_parser, run_pairs  # noqa: E402
from vision.detector import TileDetector  # noqa: E402
from vision.evaluate import Prediction, evaluate, labelled_images  # noqa: E402
from vision.imageio import read_image  # noqa: E402

FIRST_ALONE = "first classifier alone"
EVERY_TILE = "every classifier, every tile"


class CountedClassifier:
    """A classifier network that counts the batches and crops it runs; with ``any_batch`` off, it is fed padded
    batches as an ONNX export is (vision.twostage.backend)."""

    def __init__(self, network) -> None:
        self.network, self.batches, self.crops = network, 0, 0
        self.takes_any_batch = self.any_batch = getattr(network, "any_batch", False)

    def __call__(self, tensor: np.ndarray) -> np.ndarray:
        self.batches, self.crops = self.batches + 1, self.crops + len(tensor)
        return self.network(tensor)


def configurations(belows: list[float], padded: bool) -> list[tuple[str, int, float, bool]]:
    """(name, classifiers used, ensemble_below, batches padded) of each way of reading, cheapest first; with
    ``padded``, each also with its batches padded to the export's size (as before session 17)."""
    gates = [(f"others below {below:g}", 0, below) for below in sorted(belows)]
    configs = [(FIRST_ALONE, 1, 1.0), *gates, (EVERY_TILE, 0, 1.0)]
    both = [(f"{name}, batches padded", used, below, True) for name, used, below in configs] if padded else []
    return [*both, *[(name, used, below, False) for name, used, below in configs]]


def measure(model: Path, data: Path, belows: list[float], padded: bool, limit: int | None) -> dict:
    images = labelled_images(data, "val", limit)
    detector = TileDetector(model)
    stages = detector.stages
    if stages is None or len(stages._classifiers) < 2:
        raise SystemExit(f"{model} is not a two-stage model with an ensemble (meta classifier.ensemble)")
    members = [CountedClassifier(network) for network in stages._classifiers]
    shipped_below = stages.ensemble_below
    configs = configurations(belows, padded)
    times: dict[str, list[float]] = {name: [] for name, *_ in configs}
    batches: dict[str, int] = {name: 0 for name, *_ in configs}
    crops: dict[str, int] = {name: 0 for name, *_ in configs}
    predictions: dict[str, dict[Path, Prediction]] = {name: {} for name, *_ in configs}
    for image in images:
        loaded = read_image(image.path)
        for name, used, below, pad in configs:
            stages._classifiers = members[:used] if used else members
            stages.ensemble_below = below
            for member in members:
                member.any_batch = member.takes_any_batch and not pad
            before = sum(member.batches for member in members), sum(member.crops for member in members)
            start = time.perf_counter()
            detections = detector.detect(loaded)
            times[name].append(1000 * (time.perf_counter() - start))
            batches[name] += sum(member.batches for member in members) - before[0]
            crops[name] += sum(member.crops for member in members) - before[1]
            predictions[name][image.path] = Prediction(detections.xyxy, detections.confidence, detections.class_id)
    rows = []
    for name, _, below, _ in configs:
        report = evaluate(lambda path, name=name: predictions[name][path], images, stages.conf, str(model), str(data))
        rows.append({
            "reading": name, "ensemble_below": below, "tile_accuracy": report.tile_accuracy,
            "tile_errors": report.tile_errors, "missed": report.missed, "misread": report.misclassified,
            "extra": report.extra, "photos_without_error": report.exact_match,
            "classifier_batches_per_photo": round(batches[name] / len(images), 2),
            "classifier_crops_per_photo": round(crops[name] / len(images), 1),
            "ms_median": round(float(np.median(times[name])), 1), "ms_p90": round(float(np.percentile(times[name], 90)), 1),
        })
    return {
        "model": str(model), "data": str(data), "photos": len(images), "version": detector.version,
        "backend": detector.backend, "classifiers": len(members), "shipped_ensemble_below": shipped_below, "rows": rows,
    }


def markdown(result: dict) -> str:
    lines = [
        f"# An ensemble's other classifiers on the doubted tiles only ({result['created']})",
        "",
        f"{result['cpu_count']} CPU cores, load average before/after {result['load_average_before_after']}. Each photo "
        "detected with each reading one after another, in one run (`benchmarks/ensemble_gate.py`), at the product's "
        "confidence. *first classifier alone*: the ensemble's classifier/ without the others; *others below b*: the "
        "other classifiers read (and are averaged in for) only the tiles whose best class the first gives under b "
        "(meta classifier.ensemble_below); *every classifier, every tile*: as 0.14.0 shipped; *batches padded*: every "
        "batch filled up to the export's 16 crops, as ONNX Runtime needs and every backend did before session 17. "
        "Classifier batches: runs of one classifier on one batch of crops (each tile is cut upright and turned, and "
        "an unsure tile twice more), per photo; crops run: the crops in them, padding included. Padded, every batch "
        "costs the same; unpadded (OpenVINO), the crops count the work.",
        "",
    ]
    for entry in result["results"]:
        lines += [
            f"## {entry['data']} ({entry['photos']} photos), {entry['model']} (version {entry['version']}, "
            f"{entry['backend']}, {entry['classifiers']} classifiers, its meta's ensemble_below "
            f"{entry['shipped_ensemble_below']:g})",
            "",
            "| reading | tile accuracy | tile errors | missed | misread | extra | photos without an error | "
            "classifier batches per photo | crops run per photo | detect ms median | p90 |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {row['reading']} | {row['tile_accuracy']:.4f} | {row['tile_errors']} | {row['missed']} | "
            f"{row['misread']} | {row['extra']} | {row['photos_without_error']:.3f} | "
            f"{row['classifier_batches_per_photo']} | {row.get('classifier_crops_per_photo', '-')} | {row['ms_median']} | "
            f"{row['ms_p90']} |"
            for row in entry["rows"]
        ]
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = pairs_parser(__doc__, "ensemble_gate")
    parser.add_argument("--below", type=float, action="append", help="gates to try (default 0.5, 0.6, 0.8, 0.9)")
    parser.add_argument("--padded", action="store_true", help="also read each way with batches padded to the "
                        "export's size (as before session 17: OpenVINO and PyTorch now take short batches)")
    args = parser.parse_args()
    belows = args.below or [0.5, 0.6, 0.8, 0.9]
    if not all(0 <= below < 1 for below in belows):
        parser.error("each --below must be in [0, 1)")
    run_pairs(args.model, args.data, lambda model, data: measure(model, data, belows, args.padded, args.limit), markdown, args.out)


if __name__ == "__main__":
    main()
