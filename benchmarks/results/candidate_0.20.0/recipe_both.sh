#!/usr/bin/env bash
# Candidate 0.20.0b: candidate 0.20.0 (recipe.sh, which must have run) with its first classifier also trained on, 40 min
# on 2 CPU cores at 96 px from models/current/classifier (0.18.0's) on the same draw (work/exp27/crops); read beside
# models/current and 0.20.0 by benchmarks/candidate_eval.py on the same three sets (their reports are reused).
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp27)
W=work/exp27
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
if [ ! -f $W/classifier.done ]; then
  .venv/bin/mjsnap train-two-stage classifier --crops $W/crops --minutes 40 --epochs 40 --imgsz 96 \
      --pretrained models/current/classifier/model.pt --val-prefix cmd_ --name exp27_classifier > $W/classifier.log 2>&1
  grep "run folder:" $W/classifier.log | tail -1 | sed 's/run folder: //' > $W/classifier.run
  touch $W/classifier.done
fi
date -u +"%FT%TZ trained"
.venv/bin/python - <<'PY'
import shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
W = Path("work/exp27")
model = W / "model_0.20.0b"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree(W / "model_0.20.0", model, ignore=lambda folder, names: {"classifier"} if Path(folder) == W / "model_0.20.0" else set())
export_classifier(Path((W / "classifier.run").read_text().strip()) / "weights" / "last.pt", model / "classifier", 96)
PY
date -u +"%FT%TZ exported"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.20.0 current=models/current 0.20.0=$W/model_0.20.0 \
    0.20.0b=$W/model_0.20.0b
date -u +"%FT%TZ done"
