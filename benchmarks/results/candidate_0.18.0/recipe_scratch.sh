#!/usr/bin/env bash
# Candidate 0.18.0c: the first classifier trained at 96 px from the start (mahjong-detector's backbone, as
# crop_size_96.md's fold classifiers were) on recipe.sh's first draw + cmd train's crops, 33 min on 2 CPU cores;
# classifier_2 is recipe.sh's (trained on at 96); gate half_turn_below 0.8; read as recipe.sh reads.
set -euo pipefail
cd "$(dirname "$0")/../../.."
W=work/exp25
export YOLO_OFFLINE=1
if [ ! -f $W/scratch.done ]; then
  .venv/bin/mjsnap train-two-stage classifier --crops $W/crops_a --minutes 33 --epochs 40 --imgsz 96 \
      --pretrained mahjong-detector --val-prefix cmd_ --name exp25_scratch > $W/scratch.log 2>&1
  grep "run folder:" $W/scratch.log | tail -1 | sed 's/run folder: //' > $W/scratch.run
  touch $W/scratch.done
fi
date -u +"%FT%TZ trained"
.venv/bin/python - <<'PY'
import json, shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
W = Path("work/exp25")
model = W / "model_0.18.0c"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree(W / "model_0.18.0b", model, ignore=lambda folder, names: ["classifier"] if Path(folder) == W / "model_0.18.0b" else [])
export_classifier(Path((W / "scratch.run").read_text().strip()) / "weights" / "last.pt", model / "classifier", 96)
PY
date -u +"%FT%TZ exported"
for set in cmd val31 val39; do
  case $set in cmd) data=datasets/cmd.yaml;; *) data=work/exp23/$set/data.yaml;; esac
  [ -f $W/eval_${set}_c.json ] && continue
  .venv/bin/mjsnap eval --model $W/model_0.18.0c --data $data --json-out $W/eval_${set}_c.json > $W/eval_${set}_c.txt 2>&1
  python3 -c "import json;d=json.load(open('$W/eval_${set}_c.json'));print('$set','c',d['tile_errors'],d['missed'],d['misclassified'],d['extra'],d['exact_match'])"
done
date -u +"%FT%TZ done"
