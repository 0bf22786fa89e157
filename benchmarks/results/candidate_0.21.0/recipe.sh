#!/usr/bin/env bash
# Candidate 0.21.0 (session 41): 0.18.9 with both crop classifiers fine-tuned from their own weights with the 'blur'
# augmentation (vision.twostage.fastcls.augment_blur: on 30 % of the crops a moving phone's straight smear of 3-12 %
# of the crop's width in any direction, or soft focus), 18 CPU minutes each, on one fresh draw of the generator cut
# at 96 px (seeds 610-611, 2 workers for 420 s: 36,000 crops of 16,919 photos) with cmd train's 22,211 crops.
# The detector, the character reader and every reading setting are 0.18.9's. Then read beside 0.18.9 on the candidate
# sets and in worse photo conditions.
#   BASE=models/current bash benchmarks/results/candidate_0.21.0/recipe.sh   (BASE: a copy of 0.18.9)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
BASE=${BASE:-models/current}
W=${W:-work/s41/exp}
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.18.9 ] \
    || { echo "BASE must be model 0.18.9" >&2; exit 2; }
mkdir -p $W
date -u +"%FT%TZ start"
[ -d $W/cmd_crops96 ] || .venv/bin/mjsnap train-two-stage crops --data datasets/cmd.yaml --out $W/cmd_crops96 \
    --per-class-limit 1200 --size 96 --allow-missing-classes
[ -f $W/crops/stats.json ] || .venv/bin/python - "$W" <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from scripts import gpu_classifier
work = Path(sys.argv[1])
out = work / "crops"
stats = gpu_classifier.make_synthetic_crops(out, 2, 420, "../shared/tileart", 1000, first_seed=610, crop_size=96)
n_train = gpu_classifier.link_tree(work / "cmd_crops96" / "train", out / "train")
n_val = gpu_classifier.link_tree(work / "cmd_crops96" / "val", out / "val")
(out / "stats.json").write_text(json.dumps({"synthetic": stats, "cmd_train": n_train, "cmd_val": n_val}))
print(out, sum(s["photos"] for s in stats), sum(s["train"] for s in stats), n_train, n_val)
PY
date -u +"%FT%TZ crops done"
train() {  # train NAME START
  [ -f $W/$1.done ] && return
  .venv/bin/mjsnap train-two-stage classifier --crops $W/crops --minutes 18 --epochs 40 --imgsz 96 \
      --pretrained $2 --val-prefix s1_ --augment blur --name s41_$1 2>&1 | tee $W/$1.log | grep -v "^\s*$" | tail -30
  grep "run folder:" $W/$1.log | tail -1 | sed 's/run folder: //' > $W/$1.run
  touch $W/$1.done
}
train classifier "$BASE/classifier/model.pt"      # 6 epochs; cmd val crop top-1 0.9605 after the first, 0.9739 after the last
train classifier_2 "$BASE/classifier_2/model.pt"  # 6 epochs; 0.9716 -> 0.9750
.venv/bin/python - "$BASE" "$W" <<'PY'
import json, shutil, sys
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
base, work = Path(sys.argv[1]), Path(sys.argv[2])
model = work / "model_0.21.0"
shutil.rmtree(model, ignore_errors=True)
shutil.copytree(base, model, ignore=lambda folder, names: ["classifier", "classifier_2"] if Path(folder) == base else [])
for part in ("classifier", "classifier_2"):
    run = Path((work / f"{part}.run").read_text().strip())
    export_classifier(run / "weights" / "last.pt", model / part, 96)  # the last epoch, as every shipped classifier
meta = json.loads((model / "meta.json").read_text())
meta["version"] = "0.21.0"
(model / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
PY
date -u +"%FT%TZ exported"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.21.0 0.18.9="$BASE" 0.21.0=$W/model_0.21.0
.venv/bin/python benchmarks/photo_conditions.py --model "$BASE" --model $W/model_0.21.0 --out benchmarks/results/candidate_0.21.0
date -u +"%FT%TZ done"
