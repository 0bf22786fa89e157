#!/usr/bin/env bash
# Rebuild the hold-out proxy's gleitz and ffalt pairs (session 24's recipe, crop_size_96_folds.sh) on this fresh machine.
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run kept its files under work/s24)
export YOLO_OFFLINE=1
W=work/s24
date -u +"%FT%TZ start"
[ -f $W/synth_ffalt/data.yaml ] || .venv/bin/mjsnap synth --n 150 --seed 22 --val-fraction 0.99 --imgsz-min 640 --imgsz-max 1280 --art-style ffalt_uni --out $W/synth_ffalt
[ -f $W/synth_train/data.yaml ] || .venv/bin/mjsnap synth --n 900 --seed 2401 --out $W/synth_train --workers 2
date -u +"%FT%TZ synth"
[ -d $W/crops96/train ] || .venv/bin/mjsnap train-two-stage crops --data $W/synth_train/data.yaml --out $W/crops96 --size 96
date -u +"%FT%TZ crops"
.venv/bin/python benchmarks/unseen_sets.py --crops $W/crops96 --epochs 8 --minutes 45 --per-class 500 \
    --folds gleitz,ffalt --augmentations photo --out $W/unseen96 --keep-weights $W/folds96
date -u +"%FT%TZ done"
