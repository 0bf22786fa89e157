#!/usr/bin/env bash
# Candidate 0.18.8 (session 33): 0.18.7's files with the text recognizer reading the numeral above 萬 set beside its
# 萬 in one line (meta characters.numeral_view "beside", vision.twostage.characters.beside_views) instead of in two
# bands squashed to 64 px. Nothing trained. Then read beside 0.18.7 (candidate_eval.py).
#   BASE=models/current bash benchmarks/results/candidate_0.18.8/recipe.sh   (BASE: a copy of 0.18.7)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
export YOLO_OFFLINE=1
BASE=${BASE:-models/current}
OUT=${OUT:-work/s33/model_0.18.8}
[ "$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BASE/meta.json")" = 0.18.7 ] \
    || { echo "BASE must be model 0.18.7" >&2; exit 2; }
rm -rf "$OUT" && cp -r "$BASE" "$OUT"
.venv/bin/python - "$OUT/meta.json" <<'PY'
import json, sys
path = sys.argv[1]
meta = json.load(open(path, encoding="utf-8"))
meta["characters"]["numeral_view"] = "beside"
meta["version"] = "0.18.8"
open(path, "w", encoding="utf-8").write(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
PY
date -u +"%FT%TZ read"
.venv/bin/python benchmarks/candidate_eval.py --out candidate_0.18.8 0.18.7="$BASE" 0.18.8="$OUT"
date -u +"%FT%TZ done"
