#!/usr/bin/env bash
# (The first reading of session 28: the gate alone, not shipped; its reports are this folder. ../recipe.sh is the shipped one.)
# Candidate 0.18.1: 0.18.0's files with one reading setting changed: the character recognizer is asked about a tile
# whose best class is under 0.97 instead of 0.8 (meta characters.gate; benchmarks/results/character_gate.md). Read
# against models/current by benchmarks/candidate_eval.py on cmd val and the generated val sets of seeds 31 and 39,
# the phone-photo backends check (candidate_0.20.0/phone_backends.py), and timed photo by photo beside 0.18.0 on
# cmd val (the shipped classifiers) and with the hold-out proxy's classifier (a tile set it never saw, where the
# recognizer is asked most).
set -euo pipefail
cd "$(dirname "$0")/../../../.."   # the repository root (the run keeps its files under work/exp28)
W=work/exp28
GATE=0.97
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
.venv/bin/python - "$GATE" <<'PY'
import shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from benchmarks.holdout_proxy import derived_model, with_classifier
gate = float(sys.argv[1])
W = Path("work/exp28")
for folder in ("model_0.18.1", "proxy96_100", "proxy96_100_gate"):
    shutil.rmtree(W / folder, ignore_errors=True)
derived_model(Path("models/current"), W / "model_0.18.1", {"characters": {"gate": gate}})
proxy = {"classifier": {"imgsz": 96, "half_turn_below": 0.8}}
with_classifier(Path("work/model_cpu_fold_n"), Path("work/crop_size_96/100_px96.pt"), W / "proxy96_100", proxy)
with_classifier(Path("work/model_cpu_fold_n"), Path("work/crop_size_96/100_px96.pt"), W / "proxy96_100_gate",
                {**proxy, "characters": {"gate": gate}})
PY
date -u +"%FT%TZ derived"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.1/gate097 current=models/current 0.18.1=$W/model_0.18.1
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/results/candidate_0.20.0/phone_backends.py models/current $W/model_0.18.1 \
    > benchmarks/results/candidate_0.18.1/gate097/phone_backends.md
date -u +"%FT%TZ backends"
.venv/bin/python benchmarks/classifier_input.py --sizes 96 --limit 120 --out candidate_0.18.1/gate097/latency \
    --reader 0.18.0=models/current --reader 0.18.1=$W/model_0.18.1 \
    --reader proxy_gate_0.8=$W/proxy96_100 --reader proxy_gate_$GATE=$W/proxy96_100_gate
date -u +"%FT%TZ done"
