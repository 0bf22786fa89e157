"""Does a classifier trained at 64 px gain from 96 px when it is only trained on at 96 (as candidate 0.18.0's were),
not trained at 96 from the start (as crop_size_96.md's fold classifiers were)?

One hold-out fold classifier (crop_size_96.md's seed 100 `today` arm: 64 px, never saw cmd) trained on for 8 more
epochs (a cap of 8 minutes that neither arm reached) on fresh crops of one generator stream (seed 700) cut at 64 and at
96 px, then read on cmd val's real crops (the same tiles at each size) and whole photos (the hold-out proxy). Run from the repository root:

    .venv/bin/python benchmarks/results/candidate_0.18.0/resize_finetune.py

Keeps its files under work/exp25/resize; prints one JSON line per arm and writes resize_finetune.json here.
"""

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import torch

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import generator_ab  # noqa: E402
from holdout_proxy import read_photos  # noqa: E402
from vision.twostage.fastcls import load_split, train_fast_classifier  # noqa: E402

WORK = REPO / "work" / "exp25" / "resize"
START = REPO / "work" / "crop_size_96" / "100_today.pt"
REAL = {64: REPO / ".devcarry" / "cmd_crops" / "val", 96: REPO / "work" / "devcarry96" / "cmd_crops" / "val"}
SEED, MINUTES = 700, 8

args = SimpleNamespace(seconds=150, tileart=REPO.parent / "shared" / "tileart", per_class=500)
results = []
for size in (64, 96):
    crops, run = WORK / f"crops{size}", WORK / f"run{size}"
    if not (crops / "stats.json").is_file():
        stats = generator_ab.draw_crops(crops, SEED, args, REAL[size], None if size == 64 else size)
        (crops / "stats.json").write_text(json.dumps(stats))
    if not (run / "weights" / "last.pt").is_file():
        train_fast_classifier(crops, run, minutes=MINUTES, max_epochs=8, batch=128, lr=0.002, pretrained=START,
                              val_name_prefix=generator_ab.REAL_PREFIX, threads=2, seed=SEED)
    model = torch.load(str(run / "weights" / "last.pt"), map_location="cpu", weights_only=False)["model"].float()
    images, labels, names = load_split(crops / "val")
    real = np.array([n.startswith(generator_ab.REAL_PREFIX) for n in names])
    crops_read = generator_ab.read_crops(model, images[real], labels[real])
    photos = read_photos(run / "weights" / "last.pt", REPO / "work" / "model_cpu_fold_n", REPO / "datasets" / "cmd.yaml",
                         WORK / f"photos{size}.json", {"classifier": {"imgsz": size}})
    epochs = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    row = {"size": size, "epochs": len(epochs), "real_top1": crops_read["top1"],
           "real_top_confusions": crops_read["top_confusions"][:6], "tile_errors": photos["tile_errors"],
           "missed": photos["missed"], "misread": photos["misclassified"], "extra": photos["extra"],
           "photo_top_confusions": photos["top_confusions"][:6]}
    print(json.dumps(row), flush=True)
    results.append(row)
(Path(__file__).parent / "resize_finetune.json").write_text(json.dumps(
    {"start": str(START.relative_to(REPO)), "seed": SEED, "minutes": MINUTES, "arms": results}, indent=1) + "\n")
