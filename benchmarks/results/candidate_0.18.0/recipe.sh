#!/usr/bin/env bash
# Candidate 0.18.0: both of 0.16.0's classifiers trained on at 96 px (session 24's crop_size_96: 96 px crops read
# every unseen set better), each on its own fresh draw of today's generator cut at 96 px (300 / 240 s on 2 workers,
# at most 1,000 a class) + cmd train's crops cut at 96; read against models/current on cmd val and on two generated
# val sets (seeds 31 and 39), with and without half_turn_below 0.8 (which wins back the larger network's time).
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run keeps its files under work/exp25)
W=work/exp25
mkdir -p $W
export YOLO_OFFLINE=1
date -u +"%FT%TZ start"
draw() {  # draw NAME FIRST_SEED SECONDS
  [ -f $W/$1/stats.json ] && return
  rm -rf $W/$1
  .venv/bin/python - "$W/$1" "$2" "$3" <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from scripts import gpu_classifier
out, first_seed, seconds = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
stats = gpu_classifier.make_synthetic_crops(out, 2, seconds, "../shared/tileart", 1000, first_seed=first_seed, crop_size=96)
n_train = gpu_classifier.link_tree(Path("work/cmd_crops96/train"), out / "train")
n_val = gpu_classifier.link_tree(Path("work/devcarry96/cmd_crops/val"), out / "val")
(out / "stats.json").write_text(json.dumps({"synthetic": stats, "cmd_train": n_train, "cmd_val": n_val}))
print(Path(out).name, sum(s["photos"] for s in stats), sum(s["train"] for s in stats), n_train, n_val)
PY
}
draw crops_a 600 300
draw crops_b 602 240
date -u +"%FT%TZ crops done"
train() {  # train NAME CROPS START MINUTES
  [ -f $W/$1.done ] && return
  .venv/bin/mjsnap train-two-stage classifier --crops $W/$2 --minutes $4 --epochs 40 --imgsz 96 \
      --pretrained $3 --val-prefix cmd_ --name exp25_$1 2>&1 | tee $W/$1.log | grep -v "^\s*$" | tail -30
  grep "run folder:" $W/$1.log | tail -1 | sed 's/run folder: //' > $W/$1.run
  touch $W/$1.done
}
train classifier crops_a models/current/classifier/model.pt 35
date -u +"%FT%TZ first trained"
train classifier_2 crops_b models/current/classifier_2/model.pt 25
date -u +"%FT%TZ second trained"
.venv/bin/python - <<'PY'
import json, shutil, sys
from datetime import datetime, timezone
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
W = Path("work/exp25")
for name, gate in (("model_0.18.0a", None), ("model_0.18.0b", 0.8)):
    model = W / name
    shutil.rmtree(model, ignore_errors=True)
    shutil.copytree("models/current", model, ignore=lambda folder, names: ["classifier", "classifier_2"] if Path(folder) == Path("models/current") else [])
    for part in ("classifier", "classifier_2"):
        run = Path((W / f"{part}.run").read_text().strip())
        export_classifier(run / "weights" / "last.pt", model / part, 96)
    meta = json.loads((model / "meta.json").read_text())
    meta["version"] = "0.18.0"
    meta["classifier"]["imgsz"] = 96
    if gate is not None:
        meta["classifier"]["half_turn_below"] = gate
    meta["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    meta.pop("metrics", None)
    (model / "meta.json").write_text(json.dumps(meta, indent=1))
PY
date -u +"%FT%TZ exported"
for set in cmd val31 val39; do
  case $set in cmd) data=datasets/cmd.yaml;; *) data=work/exp23/$set/data.yaml;; esac
  for m in a b current; do
    [ -f $W/eval_${set}_$m.json ] && continue
    model=$W/model_0.18.0$m; [ $m = current ] && model=models/current
    .venv/bin/mjsnap eval --model $model --data $data --json-out $W/eval_${set}_$m.json > $W/eval_${set}_$m.txt 2>&1
    python3 -c "import json;d=json.load(open('$W/eval_${set}_$m.json'));print('$set','$m',d['tile_errors'],d['missed'],d['misclassified'],d['extra'],d['exact_match'])"
  done
done
date -u +"%FT%TZ done"
