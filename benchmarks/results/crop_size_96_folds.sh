#!/usr/bin/env bash
# After crop_size_96: the gleitz and ffalt folds again at 96 px (the same tiles, cut at 96), read whole at 96.
# The 64 px folds and photos (work/s24/folds, synth_gleitz, synth_ffalt, crops) are benchmarks/results/character_floor.md's;
# crops96 is `mjsnap train-two-stage crops --data work/s24/synth_train/data.yaml --out work/s24/crops96 --size 96`.
set -euo pipefail
cd "$(dirname "$0")/../.."   # the repository root (the run kept its files under work/s24)
while pgrep -f "generator_ab.py --experiment crop_size_96" > /dev/null; do sleep 20; done
export YOLO_OFFLINE=1
W=work/s24
[ -f $W/folds96/ffalt_photo.pt ] || .venv/bin/python benchmarks/unseen_sets.py --crops $W/crops96 --epochs 8 --minutes 30 --per-class 500 \
    --folds gleitz,ffalt --augmentations photo --out $W/unseen96 --keep-weights $W/folds96
.venv/bin/python - <<'PY'
import sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import generator_ab
W = Path("work/s24")
for fold, data in (("gleitz", W / "synth_gleitz/data.yaml"), ("ffalt", W / "synth_ffalt/data.yaml")):
    r = generator_ab.read_photos(W / f"folds96/{fold}_photo.pt", Path("work/model_cpu_fold_n"), data, W / f"{fold}_px96_photos.json", 96)
    print(fold, "px96", r["tile_errors"], r["top_confusions"][:8], flush=True)
PY
date -u +"%FT%TZ done"
