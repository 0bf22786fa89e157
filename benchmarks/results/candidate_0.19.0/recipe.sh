#!/usr/bin/env bash
# Candidate 0.19.0: 0.18.0 with classifier_2 trained at 96 px from the start (mahjong-detector's backbone, as 0.18.0's
# first classifier was) on candidate_0.18.0's second draw (work/exp25/crops_b: 36,000 synthetic crops at 96 px of seeds
# 602-603 + cmd train's crops at 96), 40 min on 2 CPU cores, in place of 0.16.0's classifier_2 trained on at 96 px;
# read against models/current (0.18.0) on cmd val and the two generated val sets (seeds 31 and 39) in the same run.
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp26)
W=work/exp26
mkdir -p $W
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
if [ ! -f $W/classifier_2.done ]; then
  .venv/bin/mjsnap train-two-stage classifier --crops work/exp25/crops_b --minutes 40 --epochs 40 --imgsz 96 \
      --pretrained mahjong-detector --val-prefix cmd_ --name exp26_classifier_2 > $W/classifier_2.log 2>&1
  grep "run folder:" $W/classifier_2.log | tail -1 | sed 's/run folder: //' > $W/classifier_2.run
  touch $W/classifier_2.done
fi
date -u +"%FT%TZ trained"
.venv/bin/python - <<'PY'
import json, shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
W = Path("work/exp26")
model = W / "model_0.19.0a"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree("models/current", model, ignore=lambda folder, names: ["classifier_2"] if Path(folder) == Path("models/current") else [])
export_classifier(Path((W / "classifier_2.run").read_text().strip()) / "weights" / "last.pt", model / "classifier_2", 96)
PY
date -u +"%FT%TZ exported"
for set in cmd val31 val39; do
  case $set in cmd) data=datasets/cmd.yaml;; *) data=work/exp23/$set/data.yaml;; esac
  for arm in current a; do
    case $arm in current) model=models/current;; *) model=$W/model_0.19.0$arm;; esac
    [ -f $W/eval_${set}_$arm.json ] && continue
    .venv/bin/mjsnap eval --model $model --data $data --json-out $W/eval_${set}_$arm.json > $W/eval_${set}_$arm.txt 2>&1
    python3 -c "import json;d=json.load(open('$W/eval_${set}_$arm.json'));print('$set','$arm',d['tile_errors'],d['missed'],d['misclassified'],d['extra'],d['exact_match'])"
  done
done
date -u +"%FT%TZ done"
