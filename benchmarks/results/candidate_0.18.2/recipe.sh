#!/usr/bin/env bash
# Candidate 0.18.2: 0.18.1's files with the character recognizer run in bf16 by OpenVINO on a CPU that has it (meta
# characters.openvino_precision, new in session 29), to win back the time 0.18.1's recognizer costs in batch (12 MP
# photos/s under issue 6's 8). Read as every candidate is: the hold-out proxy's six pairs (benchmarks/character_floor.py
# with the recognizer's settings as shipped, f32 and bf16), cmd val and generated seeds 31 / 39 (candidate_eval.py),
# the phone-photo backends check, per-photo latency on cmd val beside 0.18.1 (classifier_input.py), and batch
# throughput of 12 MP photos beside 0.18.1 and 0.18.0, alternating, two rounds (batch.py).
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp29)
W=work/exp29
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python - <<'PY'
import shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import derived_model, with_classifier
W = Path("work/exp29")
bf16 = {"characters": {"openvino_precision": "bf16"}}
for folder in ("model_0.18.2", "proxy96_100", "proxy96_100_bf16"):
    shutil.rmtree(W / folder, ignore_errors=True)
derived_model(Path("models/current"), W / "model_0.18.2", bf16)
proxy = {"classifier": {"imgsz": 96, "half_turn_below": 0.8}, "characters": {"gate": 1.0, "decisive_only": True}}
with_classifier(Path("work/model_cpu_fold_n"), Path("work/crop_size_96/100_px96.pt"), W / "proxy96_100", proxy)
with_classifier(Path("work/model_cpu_fold_n"), Path("work/crop_size_96/100_px96.pt"), W / "proxy96_100_bf16",
                {**proxy, "characters": {**proxy["characters"], **bf16["characters"]}})
PY
date -u +"%FT%TZ derived"
.venv/bin/python benchmarks/character_floor.py --setting gate --values 1.0 --proxy work/model_cpu_fold_n \
  --proxy-settings '{"classifier": {"imgsz": 96, "half_turn_below": 0.8}, "characters": {"decisive_only": true, "openvino_precision": "bf16"}}' \
  --work $W/proxy_bf16 --out recognizer_precision \
  --reading cmd96_100=datasets/cmd.yaml:work/crop_size_96/100_px96.pt \
  --reading gleitz96=work/s24/synth_gleitz/data.yaml:work/s24/folds96/gleitz_photo.pt \
  --reading ffalt96=work/s24/synth_ffalt/data.yaml:work/s24/folds96/ffalt_photo.pt \
  --reading cmd96_200=datasets/cmd.yaml:work/crop_size_96/200_px96.pt \
  --reading cmd96_300=datasets/cmd.yaml:work/crop_size_96/300_px96.pt \
  --reading cmd96_400=datasets/cmd.yaml:work/crop_size_96/400_px96.pt
date -u +"%FT%TZ proxy"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.2 current=models/current 0.18.2=$W/model_0.18.2
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_0.18.2 \
    > benchmarks/results/candidate_0.18.2/phone_backends.md
date -u +"%FT%TZ backends"
.venv/bin/python benchmarks/classifier_input.py --sizes 96 --limit 120 --out candidate_0.18.2/latency \
    --reader 0.18.1=models/current --reader 0.18.2=$W/model_0.18.2 \
    --reader proxy_f32=$W/proxy96_100 --reader proxy_bf16=$W/proxy96_100_bf16
date -u +"%FT%TZ latency"
for round in 1 2; do
  for m in 0.18.2 0.18.1 0.18.0; do
    case $m in 0.18.2) model=$W/model_0.18.2;; 0.18.1) model=models/current;; *) model=models/versions/$m;; esac
    .venv/bin/python benchmarks/batch.py --model $model --out benchmarks/results/candidate_0.18.2/batch_${m}_r$round \
        > $W/batch_${m}_r$round.log 2>&1
  done
done
date -u +"%FT%TZ done"
