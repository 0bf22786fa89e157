#!/usr/bin/env bash
# A candidate's time beside the shipped model, on a quiet machine: per-photo latency on cmd val (classifier_input.py,
# each photo read by both in turn) and batch throughput on 12 MP photos (batch.py), alternating, two rounds.
#
#   bash benchmarks/candidate_time.sh candidate_0.18.6 0.18.5 0.18.6 work/exp31/model_0.18.6
#
# Writes benchmarks/results/OUT/latency.{json,md} and batch_NAME_rROUND.{json,md}; batch logs go to work/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 4 ]; then
  echo "usage: $0 OUT CURRENT_NAME CANDIDATE_NAME CANDIDATE_MODEL" >&2
  exit 2
fi
out=$1 current=$2 candidate=$3 model=$4
export YOLO_OFFLINE=1
mkdir -p work
date -u +"%FT%TZ start"
.venv/bin/python benchmarks/classifier_input.py --sizes 96 --limit 120 --out "$out/latency" \
    --reader "$current=models/current" --reader "$candidate=$model"
date -u +"%FT%TZ latency"
for round in 1 2; do
  for name in "$candidate" "$current"; do
    if [ "$name" = "$candidate" ]; then reader=$model; else reader=models/current; fi
    .venv/bin/python benchmarks/batch.py --model "$reader" --out "benchmarks/results/$out/batch_${name}_r$round" \
        > "work/${out}_batch_${name}_r$round.log" 2>&1
  done
done
date -u +"%FT%TZ done"
