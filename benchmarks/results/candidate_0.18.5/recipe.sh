#!/usr/bin/env bash
# Candidate 0.18.5: 0.18.4's files with the flower check on as well (meta characters.flower_doubt 0.05;
# flower_against 0.05 and mark_seen 0.1, the defaults). The hold-out proxy was read first (flower_proxy.sh ->
# ../flower_check.md); then cmd val and generated seeds 31 / 39 (candidate_eval.py) and the phone-photo backends
# check; per-photo latency and batch throughput beside 0.18.4 in latency.sh on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp30)
W=work/exp30
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python - <<'PY'
import shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import derived_model
W = Path("work/exp30")
shutil.rmtree(W / "model_0.18.5", ignore_errors=True)
derived_model(Path("models/current"), W / "model_0.18.5", {"characters": {"flower_doubt": 0.05}})
PY
date -u +"%FT%TZ derived"
mkdir -p benchmarks/results/candidate_0.18.5
for set in cmd val31 val39; do  # 0.18.4's readings of this session, by the same code
  cp -n benchmarks/results/candidate_0.18.4/eval_${set}_0.18.4.json benchmarks/results/candidate_0.18.5/eval_${set}_current.json
done
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.5 current=models/current 0.18.5=$W/model_0.18.5
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_0.18.5 \
    > benchmarks/results/candidate_0.18.5/phone_backends.md
date -u +"%FT%TZ done"
