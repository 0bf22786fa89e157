#!/usr/bin/env bash
# Session 30: the flower check on the hold-out proxy, with 0.18.4's reading settings (the 萬 check on)
set -euo pipefail
cd /work/main
export YOLO_OFFLINE=1
.venv/bin/python benchmarks/character_floor.py --setting flower_doubt --values 0.1 --proxy work/model_cpu_fold_n \
  --proxy-settings '{"classifier": {"imgsz": 96, "half_turn_below": 0.8, "openvino_precision": "bf16"}, "characters": {"gate": 1.0, "decisive_only": true, "openvino_precision": "bf16", "wan_doubt": 0.1}}' \
  --work work/exp30/flower --out flower_check_01 \
  --reading cmd96_100=datasets/cmd.yaml:work/crop_size_96/100_px96.pt \
  --reading gleitz96=work/s24/synth_gleitz/data.yaml:work/s24/folds96/gleitz_photo.pt \
  --reading ffalt96=work/s24/synth_ffalt/data.yaml:work/s24/folds96/ffalt_photo.pt \
  --reading cmd96_200=datasets/cmd.yaml:work/crop_size_96/200_px96.pt \
  --reading cmd96_300=datasets/cmd.yaml:work/crop_size_96/300_px96.pt \
  --reading cmd96_400=datasets/cmd.yaml:work/crop_size_96/400_px96.pt
date -u +"%FT%TZ done"
