#!/usr/bin/env bash
# Candidate 0.18.3: 0.18.2's files with the crop classifiers run in bf16 by OpenVINO on a CPU that has it (meta
# classifier.openvino_precision "bf16"; since 0.14.2 they ran f32 because at 64 px bf16 read unseen sets worse). The
# hold-out proxy at 96 px was read first (work/exp29/cls_bf16.sh -> ../classifier_precision.md); then cmd val and
# generated seeds 31 / 39 (candidate_eval.py), the phone-photo backends check, per-photo latency beside 0.18.2
# (classifier_input.py) and batch throughput beside 0.18.2, alternating, two rounds (batch.py).
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp29)
W=work/exp29
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python - <<'PY'
import shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import derived_model
W = Path("work/exp29")
shutil.rmtree(W / "model_0.18.3", ignore_errors=True)
derived_model(Path("models/current"), W / "model_0.18.3", {"classifier": {"openvino_precision": "bf16"}})
PY
date -u +"%FT%TZ derived"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.3 current=models/current 0.18.3=$W/model_0.18.3
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_0.18.3 \
    > benchmarks/results/candidate_0.18.3/phone_backends.md
date -u +"%FT%TZ backends"
.venv/bin/python benchmarks/classifier_input.py --sizes 96 --limit 120 --out candidate_0.18.3/latency \
    --reader 0.18.2=models/current --reader 0.18.3=$W/model_0.18.3
date -u +"%FT%TZ latency"
for round in 1 2; do
  for m in 0.18.3 0.18.2; do
    case $m in 0.18.3) model=$W/model_0.18.3;; *) model=models/current;; esac
    .venv/bin/python benchmarks/batch.py --model $model --out benchmarks/results/candidate_0.18.3/batch_${m}_r$round \
        > $W/batch3_${m}_r$round.log 2>&1
  done
done
date -u +"%FT%TZ done"
