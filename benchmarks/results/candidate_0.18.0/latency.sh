#!/usr/bin/env bash
# What the 96 px classifiers cost per photo: 0.16.0 and both candidates read every cmd val photo in turn, one run
# (benchmarks/classifier_input.py), its files kept here as latency.md / latency.json.
set -euo pipefail
cd "$(dirname "$0")/../../.."
export YOLO_OFFLINE=1
W=work/exp25
.venv/bin/python benchmarks/classifier_input.py --limit 120 --reader 0.16.0=models/current \
    --reader 0.18.0a=$W/model_0.18.0a --reader 0.18.0b=$W/model_0.18.0b > $W/latency.txt 2>&1
cp benchmarks/results/classifier_input.md benchmarks/results/candidate_0.18.0/latency.md
cp benchmarks/results/classifier_input.json benchmarks/results/candidate_0.18.0/latency.json
git checkout benchmarks/results/classifier_input.md benchmarks/results/classifier_input.json
date -u +"%FT%TZ done"
