#!/usr/bin/env bash
# Candidate 0.17.0: 0.16.0's first classifier trained 25 min more by today's fastcls (FACE_ZOOM_SHARE 0.4) on fresh
# crops of today's generator (seeds 500-501, 300 s on 2 workers, at most 1,000 a class) + cmd train's crops; read
# against models/current on cmd val and on two generated val sets (seeds 31 and 39), same run.
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root (the run kept its files under work/exp23)
W=work/exp23
export YOLO_OFFLINE=1
date -u +"%FT%TZ start" 
if [ ! -f $W/crops/stats.json ]; then
  rm -rf $W/crops
  .venv/bin/python - <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from scripts import gpu_classifier
out = Path("work/exp23/crops")
stats = gpu_classifier.make_synthetic_crops(out, 2, 300, "../shared/tileart", 1000, first_seed=500)
n_train = gpu_classifier.link_tree(Path("work/cmd_crops/train"), out / "train")
n_val = gpu_classifier.link_tree(Path(".devcarry/cmd_crops/val"), out / "val")
(out / "stats.json").write_text(json.dumps({"synthetic": stats, "cmd_train": n_train, "cmd_val": n_val}))
print(sum(s["train"] for s in stats), n_train, n_val)
PY
fi
date -u +"%FT%TZ crops done"
[ -f $W/val31/data.yaml ] || .venv/bin/mjsnap synth --n 100 --out $W/val31 --seed 31 --val-fraction 0.99 --imgsz-min 512 --imgsz-max 800 --workers 2
[ -f $W/val39/data.yaml ] || .venv/bin/mjsnap synth --n 40 --out $W/val39 --seed 39 --val-fraction 0.99 --imgsz-min 1100 --imgsz-max 1600 --workers 2
date -u +"%FT%TZ val sets done"
if [ ! -f $W/train.done ]; then
  .venv/bin/mjsnap train-two-stage classifier --crops $W/crops --minutes 25 --epochs 40 \
      --pretrained models/current/classifier/model.pt --val-prefix cmd_ --name exp23_classifier 2>&1 | tee $W/train.log | grep -v "^\s*$" | tail -40
  touch $W/train.done
fi
date -u +"%FT%TZ trained"
RUN=$(grep "run folder:" $W/train.log | tail -1 | sed 's/run folder: //')
echo "$RUN" > $W/run_folder.txt
.venv/bin/python - "$RUN" <<'PY'
import json, shutil, sys
from datetime import datetime, timezone
from pathlib import Path
sys.path.insert(0, ".")
from vision.twostage.export import export_classifier
run = Path(sys.argv[1])
model = Path("work/model_0.17.0a")
shutil.rmtree(model, ignore_errors=True)
shutil.copytree("models/current", model, ignore=lambda folder, names: ["classifier"] if Path(folder) == Path("models/current") else [])
export_classifier(run / "weights" / "last.pt", model / "classifier", 64)
meta = json.loads((model / "meta.json").read_text())
meta["version"] = "0.17.0"
meta["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
meta.pop("metrics", None)
(model / "meta.json").write_text(json.dumps(meta, indent=1))
PY
date -u +"%FT%TZ exported"
for set in cmd val31 val39; do
  case $set in cmd) data=datasets/cmd.yaml;; *) data=$W/$set/data.yaml;; esac
  for m in a current; do
    [ -f $W/eval_${set}_$m.json ] && continue
    model=work/model_0.17.0a; [ $m = current ] && model=models/current
    .venv/bin/mjsnap eval --model $model --data $data --json-out $W/eval_${set}_$m.json > $W/eval_${set}_$m.txt 2>&1
    python3 -c "import json;d=json.load(open('$W/eval_${set}_$m.json'));print('$set','$m',d['tile_errors'],d['missed'],d['misclassified'],d['extra'],d['exact_match'])"
  done
done
date -u +"%FT%TZ done"
