"""Two-stage model (tile detector + crop classifier): how fast fine-tuning from the shipped model reaches a target,
against starting from the mahjong-detector weights (vision.pretrained) and from scratch, on this machine's CPU.

The data is a small set of ../shared/datasets/cmd val photos (the shipped model was not trained on them), split by
photo session (mjsnap.dataset.split) into its own train and val, linked (not copied) into a temporary folder.
Every start trains the same stages with the same code as `mjsnap train --base` (vision.twostage.finetune) on the
same data: the 1-class detector for the same epochs at the same imgsz, then the crop classifier on the same crops
for the same wall time. Per-epoch detector val mAP50 and classifier val top-1 with their wall times come from each
run's progress.jsonl. Starts: "shipped" (BASE/detector and BASE/classifier model.pt, the classifier at the
fine-tuning learning rate), "mahjong-detector" (the converted PyPI weights for both backbones) and "scratch"
(no weights); the last two use the classifier learning rate of `mjsnap train-two-stage classifier`.

    .venv/bin/python benchmarks/finetune.py [--base models/current] [--photos 120] [--epochs 3] [--imgsz 320]
                                            [--classifier-minutes 1.5] [--target-map50 0.5] [--target-top1 0.8]

Writes benchmarks/results/finetune.json and finetune.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.dataset.phash import cluster, hash_photo  # noqa: E402
from mjsnap.dataset.split import plan_split  # noqa: E402
from mjsnap.labels import data_yaml_text  # noqa: E402
from mjsnap.paths import MODELS_DIR, require_shared  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
SCRATCH_CLASSIFIER_LR = 0.002  # train_fast_classifier's default, what `mjsnap train-two-stage classifier` uses


def small_set(out: Path, photos: int, val_fraction: float = 0.4) -> dict:
    """Link the first ``photos`` cmd val photos into out/images/{train,val} by session; returns the counts."""
    source = require_shared("datasets", "cmd")
    images = sorted((source / "images" / "val").glob("*.jpg"))[:photos]
    plan = plan_split(cluster([hash_photo(p) for p in images]), val_fraction, seed=0)
    for image in images:
        split = plan[image.stem]
        for kind, path in (("images", image), ("labels", source / "labels" / "val" / f"{image.stem}.txt")):
            target = out / kind / split / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(path)
    (out / "data.yaml").write_text(data_yaml_text())
    return {split: sum(1 for s in plan.values() if s == split) for split in ("train", "val")}


def starts(base: Path) -> dict[str, tuple[Path | None, Path | None, float]]:
    """start name -> (detector weights, classifier weights, classifier learning rate)."""
    from mjsnap.commands.train import PRETRAINED_MAHJONG_DETECTOR, _pretrained_start
    from vision.twostage.finetune import CLASSIFIER_LR

    converted = _pretrained_start(PRETRAINED_MAHJONG_DETECTOR)
    return {
        "shipped": (base / "detector" / "model.pt", base / "classifier" / "model.pt", CLASSIFIER_LR),
        "mahjong-detector": (converted, converted, SCRATCH_CLASSIFIER_LR),
        "scratch": (None, None, SCRATCH_CLASSIFIER_LR),
    }


def curve(folder: Path, metric: str) -> list[dict]:
    rows = [json.loads(line) for line in (folder / "progress.jsonl").read_text().splitlines()]
    return [{"epoch": r["epoch"], metric: r[metric], "elapsed_s": r["elapsed_s"]} for r in rows if not r.get("final_best")]


def first_reaching(points: list[dict], metric: str, target: float) -> dict | None:
    return next((p for p in points if (p[metric] or 0) >= target), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, default=MODELS_DIR / "current", help="a two-stage model directory")
    parser.add_argument("--photos", type=int, default=120)
    parser.add_argument("--epochs", type=int, default=3, help="detector epochs of every start")
    parser.add_argument("--imgsz", type=int, default=320, help="detector imgsz of every start")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--classifier-minutes", type=float, default=1.5, help="classifier wall time of every start")
    parser.add_argument("--target-map50", type=float, default=0.5, help="the detector val mAP50 the starts race to")
    parser.add_argument("--target-top1", type=float, default=0.8, help="the classifier val top-1 they race to")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = parser.parse_args()
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    from vision.twostage import finetune as two_stage

    meta = two_stage.base_meta(args.base)
    crop_size = int(meta["classifier"]["imgsz"])
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="mjsnap-finetune-bench-") as tmp:
        data = Path(tmp) / "data"
        counts = small_set(data, args.photos)
        crops = two_stage.cut_crops(data / "data.yaml", Path(tmp) / "crops", crop_size)
        for name, (detector_start, classifier_start, lr) in starts(args.base).items():
            run = Path(tmp) / "runs" / name
            detector = two_stage.finetune_detector(data / "data.yaml", run, detector_start, args.epochs,
                                                   imgsz=args.imgsz, batch=args.batch,
                                                   command=f"benchmarks/finetune.py {name}")
            classifier = two_stage.finetune_classifier(Path(tmp) / "crops", run / "classifier", classifier_start,
                                                       minutes=args.classifier_minutes, max_epochs=1000, lr=lr)
            results[name] = {"detector": curve(detector, "mAP50"), "classifier": curve(classifier, "val_top1"),
                             "classifier_lr": lr}
            results[name]["detector_reached"] = first_reaching(results[name]["detector"], "mAP50", args.target_map50)
            results[name]["classifier_reached"] = first_reaching(results[name]["classifier"], "val_top1",
                                                                 args.target_top1)
            print(f"[finetune benchmark] {name}: {json.dumps(results[name])}", flush=True)
    report = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "load_average": os.getloadavg(),
        "base": str(args.base), "base_version": meta.get("version"),
        "data": f"first {args.photos} photos of ../shared/datasets/cmd val, split by session", "photos": counts,
        "crops": {split: sum(c.values()) for split, c in crops.items()}, "crop_size": crop_size,
        "detector": {"epochs": args.epochs, "imgsz": args.imgsz, "batch": args.batch, "lr0": 0.001},
        "classifier_minutes": args.classifier_minutes,
        "targets": {"map50": args.target_map50, "top1": args.target_top1},
        "starts": results,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "finetune.json").write_text(json.dumps(report, indent=1) + "\n")
    (args.out / "finetune.md").write_text(markdown(report))
    print(markdown(report))


def _reached(point: dict | None, what: str) -> str:
    return f"epoch {point['epoch']}, {point['elapsed_s']} s" if point else f"not in this {what}"


def markdown(report: dict) -> str:
    starts_ = report["starts"]
    names = list(starts_)
    det, targets = report["detector"], report["targets"]
    lines = [
        "# Two-stage model: fine-tuning from the shipped model vs mahjong-detector weights vs scratch (CPU)", "",
        f"{report['created']}, {report['machine']}, load average {', '.join(f'{x:.1f}' for x in report['load_average'])}"
        f" at the end. Base: {report['base_version']} ({report['base']}). Data: {report['data']} "
        f"({report['photos']['train']} train / {report['photos']['val']} val photos; {report['crops']['train']} / "
        f"{report['crops']['val']} crops of {report['crop_size']} px). Same code as `mjsnap train --base` "
        "(vision.twostage.finetune) for every start.", "",
        f"## Tile detector: {det['epochs']} epochs at imgsz {det['imgsz']}, batch {det['batch']}, lr0 {det['lr0']}", "",
        "| epoch | " + " | ".join(f"{n} mAP50 | {n} wall s" for n in names) + " |",
        "|---" * (1 + 2 * len(names)) + "|",
    ]
    for i in range(max(len(s["detector"]) for s in starts_.values())):
        cells = [(s["detector"][i]["mAP50"], s["detector"][i]["elapsed_s"]) if i < len(s["detector"]) else ("", "")
                 for s in starts_.values()]
        lines.append(f"| {i + 1} | " + " | ".join(f"{a} | {b}" for a, b in cells) + " |")
    lines += ["", f"Val mAP50 >= {targets['map50']} reached: "
              + "; ".join(f"{n} {_reached(s['detector_reached'], 'run')}" for n, s in starts_.items()) + ".", "",
              f"## Crop classifier: {report['classifier_minutes']} min of wall time each", "",
              "| start | learning rate | epochs | val top-1 per epoch (wall s) | best top-1 |", "|---|---|---|---|---|"]
    for name, s in starts_.items():
        points = ", ".join(f"{p['val_top1']} ({p['elapsed_s']})" for p in s["classifier"])
        best = max((p["val_top1"] for p in s["classifier"]), default=None)
        lines.append(f"| {name} | {s['classifier_lr']} | {len(s['classifier'])} | {points} | {best} |")
    lines += ["", f"Val top-1 >= {targets['top1']} reached: "
              + "; ".join(f"{n} {_reached(s['classifier_reached'], 'budget')}" for n, s in starts_.items()) + ".",
              "", "Reading these figures: wall seconds count from each run's start, setup included (the first run also "
              "pays the process's warm-up), on a machine other work shares, so epochs to the target compare the "
              "starts better than seconds do. These photos come from cmd val: the shipped model never trained on them, "
              "but it was promoted for its cmd val figures and was trained on photos of the same tile sets (cmd "
              "train), so it starts out far better here than it would on a club's own tiles."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
