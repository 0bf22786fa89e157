#!/usr/bin/env bash
# Session 29: batch throughput of 0.18.1 against 0.18.0 and 0.16.0, alternating, two rounds, same photos
set -uo pipefail
cd /work/main
export YOLO_OFFLINE=1
for round in 1 2; do
  for m in 0.18.1 0.16.0 0.18.0; do
    model=models/versions/$m; [ $m = 0.18.1 ] && model=models/current
    date -u +"%FT%TZ $m round $round"
    .venv/bin/python benchmarks/batch.py --model $model --out work/exp29/batch_${m}_r$round > work/exp29/batch_${m}_r$round.log 2>&1
    grep "steady" work/exp29/batch_${m}_r$round.md
  done
done
date -u +"%FT%TZ done"
