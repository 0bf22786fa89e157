#!/usr/bin/env bash
# Candidate 0.18.7 (session 32): 0.18.6 with its tile detector run in INT8 (OpenVINO,
# NNCF post-training quantization, vision.twostage.quantize), calibrated on the 350 photos of calibration_photos.txt:
# 250 of cmd train's real photos and 100 generated photos of `mjsnap synth --n 900 --seed 2401` (the hold-out
# proxy's training draw, benchmarks/results/candidate_0.18.6/folds.sh). Then read beside 0.18.6 (candidate_eval.py).
#   BASE=models/versions/0.18.6 bash benchmarks/results/candidate_0.18.7/recipe.sh   (BASE: a copy of 0.18.6)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
HERE=benchmarks/results/candidate_0.18.7
BASE=${BASE:-models/current}
OUT=${OUT:-work/s32/model_0.18.7}
CALIBRATION=work/s32/calibration
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.18.6 ] \
    || { echo "BASE must be model 0.18.6" >&2; exit 2; }
[ -f work/s24/synth_train/data.yaml ] || .venv/bin/mjsnap synth --n 900 --seed 2401 --out work/s24/synth_train --workers 2
rm -rf "$CALIBRATION" && mkdir -p "$CALIBRATION"
while read -r name target; do ln -s "$PWD/$target" "$CALIBRATION/$name"; done < "$HERE/calibration_photos.txt"
date -u +"%FT%TZ quantize"
.venv/bin/mjsnap train-two-stage quantize "$BASE" --photos "$CALIBRATION" --out "$OUT" --version 0.18.7
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.7 0.18.6="$BASE" 0.18.7="$OUT"
