#!/usr/bin/env bash
# Candidate 0.18.5's time beside 0.18.4 on a quiet machine: per-photo latency on cmd val (classifier_input.py) and
# batch throughput on 12 MP photos (batch.py), alternating, two rounds.
set -euo pipefail
cd "$(dirname "$0")/../../.."
W=work/exp30
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python benchmarks/classifier_input.py --sizes 96 --limit 120 --out candidate_0.18.5/latency \
    --reader 0.18.4=models/current --reader 0.18.5=$W/model_0.18.5
date -u +"%FT%TZ latency"
for round in 1 2; do
  for m in 0.18.5 0.18.4; do
    case $m in 0.18.5) model=$W/model_0.18.5;; *) model=models/current;; esac
    .venv/bin/python benchmarks/batch.py --model $model --out benchmarks/results/candidate_0.18.5/batch_${m}_r$round \
        > $W/batch_${m}_r$round.log 2>&1
  done
done
date -u +"%FT%TZ done"
