#!/usr/bin/env bash
# Does a third classifier on the doubted tiles help on a tile set none of them saw? The hold-out proxy
# (work/model_cpu_fold_n) reads cmd val's photos at 96 px, gated as 0.18.0 reads (half_turn_below 0.8, the others
# on tiles the first reads below 0.9), with crop_size_96.md's px96 fold classifiers (synthetic crops only, one per
# seed): alone, two averaged and three averaged. The gated single readings of seeds 100 and 200 are
# candidate_0.18.0's proxy96_ht08_cmd_*.json (563, 553).
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (files under work/exp26)
export YOLO_OFFLINE=1
.venv/bin/python - <<'PY'
import sys
from pathlib import Path
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import read_photos
W, F = Path("work/exp26"), Path("work/crop_size_96")
proxy = Path("work/model_cpu_fold_n")
gate = {"classifier": {"imgsz": 96, "half_turn_below": 0.8, "ensemble_below": 0.9}}
for seeds in ((300,), (400,), (100, 200), (300, 400), (100, 200, 300), (300, 400, 100)):
    first, *others = [F / f"{seed}_px96.pt" for seed in seeds]
    name = "_".join(map(str, seeds))
    r = read_photos(first, proxy, Path("datasets/cmd.yaml"), W / f"proxy_ensemble_{name}.json", gate, others)
    print(name, r["tile_errors"], r["missed"], r["misclassified"], r["extra"], r["top_confusions"][:5], flush=True)
PY
date -u +"%FT%TZ done"
