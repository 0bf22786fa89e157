#!/usr/bin/env bash
# Candidate 0.20.0: 0.18.0 with its second classifier trained on at 96 px on more synthetic variety: one draw of
# today's generator of 2,400 crops a class (seeds 604-605, 2 workers, at most 480 s) instead of candidate 0.18.0's
# 1,000, + cmd train's crops at 96, 65 min on 2 CPU cores from models/current/classifier_2 (0.18.0's); then read
# against models/current by benchmarks/candidate_eval.py on cmd val and the generated val sets of seeds 31 and 39.
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp27)
W=work/exp27
mkdir -p $W
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
if [ ! -f $W/crops/stats.json ]; then
  rm -rf $W/crops
  .venv/bin/python - "$W/crops" <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from scripts import gpu_classifier
out = Path(sys.argv[1])
stats = gpu_classifier.make_synthetic_crops(out, 2, 480, "../shared/tileart", 2400, first_seed=604, crop_size=96)
n_train = gpu_classifier.link_tree(Path("work/cmd_crops96/train"), out / "train")
n_val = gpu_classifier.link_tree(Path("work/devcarry96/cmd_crops/val"), out / "val")
(out / "stats.json").write_text(json.dumps({"synthetic": stats, "cmd_train": n_train, "cmd_val": n_val}))
print(out.name, sum(s["photos"] for s in stats), sum(s["train"] for s in stats), n_train, n_val)
PY
fi
date -u +"%FT%TZ crops done"
if [ ! -f $W/classifier_2.done ]; then
  .venv/bin/mjsnap train-two-stage classifier --crops $W/crops --minutes 65 --epochs 40 --imgsz 96 \
      --pretrained models/current/classifier_2/model.pt --val-prefix cmd_ --name exp27_classifier_2 > $W/classifier_2.log 2>&1
  grep "run folder:" $W/classifier_2.log | tail -1 | sed 's/run folder: //' > $W/classifier_2.run
  touch $W/classifier_2.done
fi
date -u +"%FT%TZ trained"
.venv/bin/python - <<'PY'
import shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
W = Path("work/exp27")
model = W / "model_0.20.0"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree("models/current", model, ignore=lambda folder, names: {"classifier_2"} if Path(folder) == Path("models/current") else set())
export_classifier(Path((W / "classifier_2.run").read_text().strip()) / "weights" / "last.pt", model / "classifier_2", 96)
PY
date -u +"%FT%TZ exported"
.venv/bin/python benchmarks/candidate_eval.py --out benchmarks/results/candidate_0.20.0 current=models/current 0.20.0=$W/model_0.20.0
date -u +"%FT%TZ done"
