"""How sure each model's tile detector (stage 1 of a two-stage model) is of each labelled tile, by class.

A two-stage model keeps a tile when detector confidence x class probability reaches the operating cut, so a class
the detector doubts is dropped however well the classifier reads it (cmd's framed 白: see error_anatomy.md). For every
labelled tile this takes the detector's best box on it (IoU >= 0.5, boxes kept down to conf 0.001; 0 when there is
none) and reports, per class and model, the median confidence and the tiles under the cut. The models run on the same
photos in one run, through the backend the product uses (vision.twostage.backend.TwoStageNetworks.find_tiles).

    .venv/bin/python benchmarks/detector_confidence.py --model models/current --model work/model_X \
        [--data datasets/cmd.yaml] [--cut 0.25] [--out benchmarks/results]

Writes detector_confidence.json and detector_confidence.md to --out.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.paths import repo_relative  # noqa: E402
from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision import evaluate as ev  # noqa: E402

LOWEST = 0.001  # as for mAP: every box the detector proposes


def best_confidence(truth: np.ndarray, boxes: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """(M,) for each true xyxy box, the highest confidence of a box matching it at IoU >= 0.5, 0 where none does."""
    if not len(truth) or not len(boxes):
        return np.zeros(len(truth), np.float32)
    matches = ev.box_iou(truth, boxes) >= ev.MATCH_IOU
    return np.where(matches, confidence[None, :], 0.0).max(1).astype(np.float32)


def summarize(confidences: dict[int, list[float]], cut: float) -> dict[str, dict]:
    """Per class name (in class order): tiles, median confidence and how many fall under the cut."""
    out = {}
    for class_id in sorted(confidences):
        values = np.asarray(confidences[class_id], np.float32)
        out[CLASS_NAMES[class_id]] = {"tiles": int(len(values)), "median": round(float(np.median(values)), 3),
                                      "under_cut": int((values < cut).sum())}
    return out


def measure(model_dir: Path, images: list[ev.LabelledImage], cut: float) -> dict[str, dict]:
    from vision.imageio import read_image
    from vision.twostage.backend import TwoStageNetworks

    meta = json.loads((model_dir / "meta.json").read_text())
    if meta.get("design") != "two_stage":
        raise SystemExit(f"{model_dir}: not a two-stage model (design {meta.get('design')!r})")
    networks = TwoStageNetworks(model_dir, meta, "auto", LOWEST, 0.5)
    confidences: dict[int, list[float]] = {}
    for item in images:
        loaded = read_image(item.path)
        boxes, confidence = networks.find_tiles(loaded)
        to_x, to_y = loaded.to_original
        found = best_confidence(item.xyxy, boxes * [to_x, to_y, to_x, to_y], confidence)
        for class_id, value in zip(item.class_id.tolist(), found.tolist()):
            confidences.setdefault(class_id, []).append(value)
    return summarize(confidences, cut)


def to_markdown(report: dict) -> str:
    versions = list(report["models"])
    lines = [
        "# Tile detector confidence on labelled tiles, by class",
        "",
        f"{report['date']}: {report['data']} ({report['images']} photos), the detector's best box on each labelled "
        f"tile (IoU >= 0.5, 0 if none); median and tiles under {report['cut']}; `benchmarks/detector_confidence.py`.",
        "",
        "| class | tiles | " + " | ".join(f"{v} median | {v} under" for v in versions) + " |",
        "|---|---|" + "---|---|" * len(versions),
    ]
    first = report["models"][versions[0]]["classes"]
    for name, row in first.items():
        cells = []
        for v in versions:
            cls = report["models"][v]["classes"].get(name, {})
            cells += [str(cls.get("median", "")), str(cls.get("under_cut", ""))]
        lines.append(f"| {name} | {row['tiles']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, action="append", help="a two-stage model directory; repeat to compare")
    parser.add_argument("--data", type=Path, default=REPO / "datasets" / "cmd.yaml")
    parser.add_argument("--cut", type=float, default=0.25)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    models = args.model or [REPO / "models" / "current"]
    images = ev.labelled_images(args.data)
    report = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "data": repo_relative(args.data),
              "images": len(images), "cut": args.cut, "models": {}}
    for model in models:
        version = json.loads((model / "meta.json").read_text()).get("version", repo_relative(model))
        report["models"][version] = {"model": repo_relative(model), "classes": measure(model, images, args.cut)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "detector_confidence.json").write_text(json.dumps(report, indent=1) + "\n")
    text = to_markdown(report)
    (args.out / "detector_confidence.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
