#!/usr/bin/env bash
# Candidate 0.24.0 (session 44): 0.23.0 with its tile detector trained on for 5 epochs on photos drawn after print on
# the table (vision.synth.printed: score sheets, receipts, phones showing the time, packs, never labelled) and gingham
# and polka-dot cloths came into the generator, blurred as 0.23.0's were (`--blur 0.35`), on
# datasets/detector_print.yaml, from 0.23.0's detector; run in INT8 as 0.23.0's is, calibrated on 0.18.7's 350 photos
# (../candidate_0.18.7/calibration_photos.txt). The classifiers, the text recognizer and every reading setting are
# 0.23.0's. Then read beside 0.23.0 on the candidate sets and on print (print_probe.py), and in worse photo conditions.
#   BASE=models/current bash benchmarks/results/candidate_0.24.0/recipe.sh   (BASE: a copy of 0.23.0)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
HERE=benchmarks/results/candidate_0.24.0
BASE=${BASE:-models/current}
W=${W:-work/s44/exp}
DATA=work/detector_print
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.23.0 ] \
    || { echo "BASE must be model 0.23.0" >&2; exit 2; }
mkdir -p $W
date -u +"%FT%TZ start"
[ -d $DATA/cmd_turned ] || .venv/bin/mjsnap turn --data datasets/cmd.yaml --split train --out $DATA/cmd_turned --seed 0
[ -d $DATA/synth_big ] || .venv/bin/mjsnap synth --n 1200 --out $DATA/synth_big --seed 46 --val-fraction 0 \
    --imgsz-min 1100 --imgsz-max 1600 --workers 2
[ -d $DATA/synth ] || .venv/bin/mjsnap synth --n 1200 --out $DATA/synth --seed 45 --val-fraction 0 --workers 2
if [ ! -f $W/detector.done ]; then  # 80 min on 2 CPU cores (session 44; 62 without other work beside it)
  .venv/bin/mjsnap train-two-stage detector --data datasets/detector_print.yaml --epochs 5 --imgsz 480 \
      --pretrained "$BASE/detector/model.pt" --lr0 0.0003 --blur 0.35 --name s44_detector_print > $W/detector.log 2>&1
  grep "run folder:" $W/detector.log | tail -1 | sed 's/run folder: //' > $W/detector.run
  touch $W/detector.done
fi
# the last epoch, not the best on cmd val
.venv/bin/python benchmarks/holdout_proxy.py --base "$BASE" --out $W/model_0.24.0_f32 \
    --detector "$(cat $W/detector.run)/weights/last.pt" --version 0.24.0-f32
# 0.18.7's calibration photos include 100 of this set; drawn again now, it would hold print and newer cloths
[ -f work/s24/synth_train/data.yaml ] || .venv/bin/mjsnap synth --n 900 --seed 2401 --out work/s24/synth_train --workers 2
CALIBRATION=$W/calibration
rm -rf "$CALIBRATION" && mkdir -p "$CALIBRATION"
while read -r name target; do ln -s "$PWD/$target" "$CALIBRATION/$name"; done < benchmarks/results/candidate_0.18.7/calibration_photos.txt
rm -rf $W/model_0.24.0
date -u +"%FT%TZ quantize"
.venv/bin/mjsnap train-two-stage quantize $W/model_0.24.0_f32 --photos "$CALIBRATION" --out $W/model_0.24.0 --version 0.24.0
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.24.0 0.23.0="$BASE" 0.24.0=$W/model_0.24.0
.venv/bin/python $HERE/print_probe.py "$BASE" $W/model_0.24.0
# 0.24.0 alone: 0.23.0 reads these changed photos as it did in candidate_0.23.0/photo_conditions.json (its cmd val reading
# above is that run's to the tile), so its column there is the baseline and 22 CPU minutes are saved
.venv/bin/python benchmarks/photo_conditions.py --model $W/model_0.24.0 --out $HERE
date -u +"%FT%TZ done"
