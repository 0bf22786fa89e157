#!/usr/bin/env bash
# Candidate 0.18.9 (session 40): 0.18.8's files with the light balance on (meta "light", vision.twostage.light): a
# photo whose tile faces are redder, bluer or greener than the box below has that cast taken back onto the box's
# edge before its tiles are classified; a photo inside the box is read exactly as 0.18.8 reads it. Nothing trained.
# Then read beside 0.18.8 on the candidate sets and in worse photo conditions (photo_conditions.py).
#   BASE=models/current bash benchmarks/results/candidate_0.18.9/recipe.sh   (BASE: a copy of 0.18.8)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
BASE=${BASE:-models/current}
OUT=${OUT:-work/s40/model_0.18.9}
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.18.8 ] \
    || { echo "BASE must be model 0.18.8" >&2; exit 2; }
rm -rf "$OUT" && cp -r "$BASE" "$OUT"
.venv/bin/python - "$OUT/meta.json" <<'PY'
import json, sys
path = sys.argv[1]
meta = json.load(open(path, encoding="utf-8"))
meta["light"] = {"red": [0.92, 1.15], "blue": [0.8, 1.05]}  # cmd val faces: 1st-99th pct 0.98-1.08, 0.885-1.0
meta["version"] = "0.18.9"
open(path, "w", encoding="utf-8").write(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
PY
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.9 0.18.8="$BASE" 0.18.9="$OUT"
.venv/bin/python benchmarks/photo_conditions.py --model "$BASE" --model "$OUT" --out benchmarks/results/candidate_0.18.9
date -u +"%FT%TZ done"
