"""How much faster fine-tuning from the shipped model reaches a target mAP50 than training from scratch, on a small
set of photos the shipped model was not trained on, on this machine's CPU.

The small set is built from ../shared/datasets/cmd val photos (the shipped model only validated on them), split
by photo session (mjsnap.dataset.split) into its own train and val, linked (not copied) into a temporary folder.
Both runs use the same data, imgsz, batch and epochs; fine-tuning starts from --base (`mjsnap train --base`),
scratch from yolo11n.yaml. Per-epoch val mAP50 and wall time come from each run's progress.jsonl.

    .venv/bin/python benchmarks/finetune.py [--base models/current] [--photos 120] [--epochs 4] [--imgsz 320]
                                            [--target 0.5]

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


def run(mode: str, data: Path, base: Path, epochs: int, imgsz: int, batch: int, project: Path) -> list[dict]:
    from vision.finetune import finetune
    from vision.train import TrainSettings, train

    settings = TrainSettings(data=data, epochs=epochs, imgsz=imgsz, batch=batch, name=mode, project=project,
                             command=f"benchmarks/finetune.py {mode}", close_mosaic=0, warmup_epochs=0.0)
    folder = finetune(settings, base, keep_imgsz=True, progress_bar=False) if mode == "finetune" else train(settings)
    return [json.loads(line) for line in (folder / "progress.jsonl").read_text().splitlines()
            if not json.loads(line).get("final_best")]


def first_reaching(curve: list[dict], target: float) -> dict | None:
    return next((p for p in curve if (p["mAP50"] or 0) >= target), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, default=MODELS_DIR / "current")
    parser.add_argument("--photos", type=int, default=120)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--imgsz", type=int, default=320)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--target", type=float, default=0.5, help="the mAP50 both runs race to")
    args = parser.parse_args()
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    with tempfile.TemporaryDirectory(prefix="mjsnap-finetune-bench-") as tmp:
        data = Path(tmp) / "data"
        counts = small_set(data, args.photos)
        curves = {mode: run(mode, data / "data.yaml", args.base, args.epochs, args.imgsz, args.batch, Path(tmp) / "runs")
                  for mode in ("finetune", "scratch")}
    reached = {mode: first_reaching(curve, args.target) for mode, curve in curves.items()}
    result = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores (shared with other work)",
        "base": str(args.base), "base_version": json.loads((args.base / "meta.json").read_text()).get("version"),
        "data": f"first {args.photos} photos of ../shared/datasets/cmd val, split by session", "photos": counts,
        "epochs": args.epochs, "imgsz": args.imgsz, "batch": args.batch, "target_map50": args.target,
        "curves": curves, "reached": reached,
    }
    if all(reached.values()):
        result["speedup_wall"] = round(reached["scratch"]["elapsed_s"] / max(reached["finetune"]["elapsed_s"], 1), 2)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "finetune.json").write_text(json.dumps(result, indent=1) + "\n")
    lines = [
        "# Fine-tuning from the shipped model vs training from scratch (CPU)", "",
        f"{result['created']}, {result['machine']}. Base: {result['base_version']}. Data: {result['data']} "
        f"({counts['train']} train / {counts['val']} val photos), imgsz {args.imgsz}, batch {args.batch}, "
        f"{args.epochs} epochs each. Target: val mAP50 >= {args.target}.", "",
        "| epoch | fine-tune mAP50 | fine-tune wall s | scratch mAP50 | scratch wall s |", "|---|---|---|---|---|",
    ]
    for a, b in zip(curves["finetune"], curves["scratch"]):
        lines.append(f"| {a['epoch']} | {a['mAP50']} | {a['elapsed_s']} | {b['mAP50']} | {b['elapsed_s']} |")
    for mode, point in reached.items():
        lines.append(f"\n{mode}: " + (f"reached the target at epoch {point['epoch']} after {point['elapsed_s']} s"
                                      if point else f"did not reach the target in {args.epochs} epochs"))
    if "speedup_wall" in result:
        lines.append(f"\nFine-tuning reached it {result['speedup_wall']}x faster (wall time).")
    (RESULTS / "finetune.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
