#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/../.."   # the repository root (the run kept its files under work/s24)
# work/s24/current_ht08 and proxy_ht08: copies of models/current and work/model_cpu_fold_n with meta classifier
# "half_turn_below": 0.8; the folds and photos are character_floor.md's, the cmd classifiers crop_size_96.md's today arm
export YOLO_OFFLINE=1
W=work/s24
.venv/bin/python benchmarks/classifier_input.py --limit 120 --reader shipped=models/current --reader half_turn_0.8=$W/current_ht08 > $W/ht_latency.txt 2>&1
cp benchmarks/results/classifier_input.md $W/ht_latency.md; cp benchmarks/results/classifier_input.json $W/ht_latency.json
git checkout benchmarks/results/classifier_input.md benchmarks/results/classifier_input.json
.venv/bin/mjsnap compare --candidate $W/current_ht08 --current models/current --data datasets/cmd.yaml --json-out $W/ht_compare_cmd.json > $W/ht_compare_cmd.txt 2>&1
.venv/bin/python - <<'PY'
import sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import generator_ab
W = Path("work/s24")
for seed in (100, 200):
    r = generator_ab.read_photos(Path(f"work/crop_size_96/{seed}_today.pt"), W / "proxy_ht08", Path("datasets/cmd.yaml"), W / f"ht_proxy_{seed}.json")
    print(seed, r["tile_errors"], flush=True)
for fold, data in (("gleitz", W / "synth_gleitz/data.yaml"), ("ffalt", W / "synth_ffalt/data.yaml")):
    r = generator_ab.read_photos(W / f"folds/{fold}_photo.pt", W / "proxy_ht08", data, W / f"ht_proxy_{fold}.json")
    print(fold, r["tile_errors"], flush=True)
PY
date -u +"%FT%TZ done"
