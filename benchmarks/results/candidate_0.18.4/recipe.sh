#!/usr/bin/env bash
# Candidate 0.18.4: 0.18.3's files with the 萬 check on (meta characters.wan_doubt 0.1; wan_seen (since renamed mark_seen) 0.1, wan_against
# 0.05, wan_missing 0.3, the defaults). The hold-out proxy was read first (work/exp30/wan_proxy.sh and
# wan_gentle.sh -> ../wan_check*.md) and the evidence behind the check is ../wan_seen.md. Then cmd val and generated
# seeds 31 / 39 (candidate_eval.py) and the phone-photo backends check; per-photo latency and batch throughput beside
# 0.18.3 run in latency.sh on a quiet machine.
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
shutil.rmtree(W / "model_0.18.4", ignore_errors=True)
derived_model(Path("models/current"), W / "model_0.18.4", {"characters": {"wan_doubt": 0.1}})
PY
date -u +"%FT%TZ derived"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.4 current=models/current 0.18.4=$W/model_0.18.4
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_0.18.4 \
    > benchmarks/results/candidate_0.18.4/phone_backends.md
date -u +"%FT%TZ done"
