#!/usr/bin/env bash
# Candidate 0.22.0 (session 42): candidate 0.21.0's blur-trained first classifier, and its second classifier trained
# on for 14 CPU minutes more with the 'blur_dim' augmentation (vision.twostage.fastcls.augment_blur_dim: 'blur', then
# a quarter of the crops darkened with sensor noise, as a dim room's photo is), on 0.21.0's crops. The detector, the
# character reader and every reading setting are 0.18.9's. Then read beside 0.18.9 on the candidate sets and in worse
# photo conditions. (The screen that chose this recipe, screen_hybrids.md, was run by hand: README.md.)
#   BASE=models/current bash benchmarks/results/candidate_0.22.0/recipe.sh   (BASE: a copy of 0.18.9)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
BASE=${BASE:-models/current}
W41=${W41:-work/s41/exp}   # candidate 0.21.0's work folder: its crops, its runs and model_0.21.0
W=${W:-work/s42/exp}
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.18.9 ] \
    || { echo "BASE must be model 0.18.9" >&2; exit 2; }
[ -d $W41/model_0.21.0 ] || BASE=$BASE W=$W41 bash benchmarks/results/candidate_0.21.0/recipe.sh
mkdir -p $W
date -u +"%FT%TZ start"
if [ ! -f $W/classifier_2.done ]; then  # 4 epochs, the last cut short; cmd val crop top-1 0.9731, 0.9750, 0.9744, 0.9744
  .venv/bin/mjsnap train-two-stage classifier --crops $W41/crops --minutes 14 --epochs 40 --imgsz 96 \
      --pretrained $W41/model_0.21.0/classifier_2/model.pt --val-prefix s1_ --augment blur_dim \
      --name s42_classifier_2 > $W/classifier_2.log 2>&1
  grep "run folder:" $W/classifier_2.log | tail -1 | sed 's/run folder: //' > $W/classifier_2.run
  touch $W/classifier_2.done
fi
.venv/bin/python - "$BASE" "$W41" "$W" <<'PY'
import json, shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
base, w41, work = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
model = work / "model_0.22.0"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree(base, model, ignore=lambda folder, names: ["classifier", "classifier_2"] if Path(folder) == base else [])
shutil.copytree(w41 / "model_0.21.0" / "classifier", model / "classifier")
run = Path((work / "classifier_2.run").read_text().strip())
export_classifier(run / "weights" / "last.pt", model / "classifier_2", 96)  # the last epoch, as every shipped classifier
meta = json.loads((model / "meta.json").read_text())
meta["version"] = "0.22.0"
(model / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
PY
date -u +"%FT%TZ exported"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.22.0 0.18.9="$BASE" 0.22.0=$W/model_0.22.0
.venv/bin/python benchmarks/photo_conditions.py --model "$BASE" --model $W/model_0.22.0 --out benchmarks/results/candidate_0.22.0
.venv/bin/python benchmarks/classifier_input.py --reader 0.18.9="$BASE" --reader 0.22.0=$W/model_0.22.0 --sizes 96 \
    --limit 160 --out candidate_0.22.0/latency   # after promotion it read 0.22.0 from models/current, 0.18.9 from a copy
date -u +"%FT%TZ done"
