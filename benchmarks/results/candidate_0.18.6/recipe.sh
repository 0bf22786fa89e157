#!/usr/bin/env bash
# Candidate 0.18.6, first step ("flower01"): 0.18.5's files with the flower check's doubt band at 0.1 instead of 0.05 (meta
# characters.flower_doubt). The hold-out proxy read it first (../flower_check_01.md: 3,053 against 3,052 tile errors,
# 45 cmd val tiles asked about instead of 96). Here cmd val and generated seeds 31 / 39 (candidate_eval.py, both
# models read in this run), the phone-photo backends check, then recipe_twins.sh.
#   (then recipe_twins.sh made the candidate promoted as 0.18.6, flower01 with the twins)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp31)
W=work/exp31
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python benchmarks/holdout_proxy.py --out $W/model_flower01 --settings '{"characters": {"flower_doubt": 0.1}}'
date -u +"%FT%TZ derived"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.6 0.18.5=models/current flower01=$W/model_flower01
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_flower01 \
    > benchmarks/results/candidate_0.18.6/phone_backends.md
date -u +"%FT%TZ done"
