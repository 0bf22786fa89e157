#!/usr/bin/env bash
# Candidate 0.19.0b: 0.18.0 with recipe.sh's classifier (trained at 96 px from the start) as a third classifier
# (classifier_3/, meta classifier.ensemble ["classifier_2", "classifier_3"]): the doubted tiles are read by all three.
# Read on cmd val and the two generated val sets as recipe.sh reads (while the soft_crops benchmark trained: epochs,
# not the time cap, end its runs, so only its duration moved).
set -euo pipefail
cd "$(dirname "$0")/../../.."
W=work/exp26
export YOLO_OFFLINE=1
.venv/bin/python - <<'PY'
import json, shutil
from pathlib import Path
W = Path("work/exp26")
model = W / "model_0.19.0b"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree("models/current", model)
shutil.copytree(W / "model_0.19.0a" / "classifier_2", model / "classifier_3")
meta = json.loads((model / "meta.json").read_text())
meta["classifier"]["ensemble"] = ["classifier_2", "classifier_3"]
(model / "meta.json").write_text(json.dumps(meta, indent=1))
PY
for set in cmd val31 val39; do
  case $set in cmd) data=datasets/cmd.yaml;; *) data=work/exp23/$set/data.yaml;; esac
  [ -f $W/eval_${set}_b.json ] && continue
  nice -n 5 .venv/bin/mjsnap eval --model $W/model_0.19.0b --data $data --json-out $W/eval_${set}_b.json > $W/eval_${set}_b.txt 2>&1
  python3 -c "import json;d=json.load(open('$W/eval_${set}_b.json'));print('$set','b',d['tile_errors'],d['missed'],d['misclassified'],d['extra'],d['exact_match'])"
done
date -u +"%FT%TZ done"
