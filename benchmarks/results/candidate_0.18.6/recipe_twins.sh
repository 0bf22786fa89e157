#!/usr/bin/env bash
# Candidate 0.18.6: flower01 (recipe.sh) with the twins read together as well (vision.twostage.twins; meta
# classifier.twins below 0.9, likeness 0.93), after the hold-out proxy read them (../twins_proxy.md). cmd val and
# generated seeds 31 / 39 (0.18.5's and flower01's readings of recipe.sh kept), the phone-photo backends check, then
# time beside 0.18.5:
#   bash benchmarks/candidate_time.sh candidate_0.18.6 0.18.5 0.18.6 work/exp31/model_0.18.6
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp31)
W=work/exp31
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python benchmarks/holdout_proxy.py --out $W/model_0.18.6 \
    --settings '{"characters": {"flower_doubt": 0.1}, "classifier": {"twins": {"below": 0.9, "likeness": 0.93}}}'
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.6 0.18.5=models/current flower01=$W/model_flower01 \
    0.18.6=$W/model_0.18.6
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_0.18.6 \
    > benchmarks/results/candidate_0.18.6/phone_backends_0.18.6.md
date -u +"%FT%TZ done"
