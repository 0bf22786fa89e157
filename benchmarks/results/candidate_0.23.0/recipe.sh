#!/usr/bin/env bash
# Candidate 0.23.0 (session 43): 0.22.0 with its tile detector trained on for 5 epochs with blurred photos
# (`mjsnap train-two-stage detector --blur 0.35`, vision.train.blur_augmentations: a soft focus or a phone's smear on
# a third of the photos) on datasets/detector_blur.yaml, from 0.22.0's detector; run in INT8 as 0.22.0's is,
# calibrated on 0.18.7's 350 photos (../candidate_0.18.7/calibration_photos.txt). The classifiers, the text recognizer and every reading
# setting are 0.22.0's. Then read beside 0.22.0 on the candidate sets and in worse photo conditions.
#   BASE=models/current bash benchmarks/results/candidate_0.23.0/recipe.sh   (BASE: a copy of 0.22.0)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
HERE=benchmarks/results/candidate_0.23.0
BASE=${BASE:-models/current}
W=${W:-work/s43/exp}
DATA=work/detector_blur
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.22.0 ] \
    || { echo "BASE must be model 0.22.0" >&2; exit 2; }
mkdir -p $W
date -u +"%FT%TZ start"
[ -d $DATA/cmd_turned ] || .venv/bin/mjsnap turn --data datasets/cmd.yaml --split train --out $DATA/cmd_turned --seed 0
[ -d $DATA/synth_big ] || .venv/bin/mjsnap synth --n 1200 --out $DATA/synth_big --seed 43 --val-fraction 0 \
    --imgsz-min 1100 --imgsz-max 1600 --workers 2
[ -d $DATA/synth ] || .venv/bin/mjsnap synth --n 1200 --out $DATA/synth --seed 44 --val-fraction 0 --workers 2
if [ ! -f $W/detector.done ]; then  # 62 min on 2 CPU cores (session 43)
  .venv/bin/mjsnap train-two-stage detector --data datasets/detector_blur.yaml --epochs 5 --imgsz 480 \
      --pretrained "$BASE/detector/model.pt" --lr0 0.0003 --blur 0.35 --name s43_detector_blur > $W/detector.log 2>&1
  grep "run folder:" $W/detector.log | tail -1 | sed 's/run folder: //' > $W/detector.run
  touch $W/detector.done
fi
.venv/bin/python - "$BASE" "$W" <<'PY'
import json, shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_detector
base, work = Path(sys.argv[1]), Path(sys.argv[2])
model = work / "model_0.23.0_f32"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree(base, model, ignore=lambda folder, names: ["detector"] if Path(folder) == base else [])
run = Path((work / "detector.run").read_text().strip())
files = export_detector(run / "weights" / "last.pt", model / "detector", 480)  # the last epoch, not the best on cmd val
meta = json.loads((model / "meta.json").read_text())
meta["detector"].update(files=files, openvino_precision="f32")  # quantize adds the INT8 copy below
meta.pop("quantized")  # that told of 0.22.0's detector
meta["version"] = "0.23.0-f32"
(model / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
PY
[ -f work/s24/synth_train/data.yaml ] || .venv/bin/mjsnap synth --n 900 --seed 2401 --out work/s24/synth_train --workers 2
CALIBRATION=$W/calibration
rm -rf "$CALIBRATION" && mkdir -p "$CALIBRATION"
while read -r name target; do ln -s "$PWD/$target" "$CALIBRATION/$name"; done < benchmarks/results/candidate_0.18.7/calibration_photos.txt
rm -rf $W/model_0.23.0
date -u +"%FT%TZ quantize"
.venv/bin/mjsnap train-two-stage quantize $W/model_0.23.0_f32 --photos "$CALIBRATION" --out $W/model_0.23.0 --version 0.23.0
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.23.0 0.22.0="$BASE" 0.23.0=$W/model_0.23.0
.venv/bin/python benchmarks/photo_conditions.py --model "$BASE" --model $W/model_0.23.0 --out $HERE
date -u +"%FT%TZ done"
