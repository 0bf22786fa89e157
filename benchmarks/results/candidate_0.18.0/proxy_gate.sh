#!/usr/bin/env bash
# Does half_turn_below 0.8 cost a 96 px classifier anything on tile sets it never saw? The hold-out proxy
# (work/model_cpu_fold_n) read with crop_size_96.md's px96 fold classifiers, at 96 px, the gate on; its gate-off
# readings are crop_size_96.md's (cmd seeds 100 / 200: 551 / 545, gleitz 445, ffalt 268).
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (files under work/exp25)
export YOLO_OFFLINE=1
.venv/bin/python - <<'PY'
import sys
from pathlib import Path
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import read_photos
W, S = Path("work/exp25"), Path("work/s24")
proxy, gate = Path("work/model_cpu_fold_n"), {"classifier": {"imgsz": 96, "half_turn_below": 0.8}}
reads = [(f"cmd_{seed}", Path(f"work/crop_size_96/{seed}_px96.pt"), Path("datasets/cmd.yaml")) for seed in (100, 200)]
reads += [(fold, S / f"folds96/{fold}_photo.pt", S / f"synth_{fold}/data.yaml") for fold in ("gleitz", "ffalt")]
for name, classifier, data in reads:
    r = read_photos(classifier, proxy, data, W / f"proxy96_ht08_{name}.json", gate)
    print(name, r["tile_errors"], r["missed"], r["misclassified"], r["extra"], r["top_confusions"][:6], flush=True)
PY
date -u +"%FT%TZ done"
