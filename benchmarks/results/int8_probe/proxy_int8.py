"""Hold-out proxy, f32 (session 31's readings, twins on) against INT8 copies of the same fold readers."""
import json, sys, random
from pathlib import Path
REPO = Path("/work/main"); sys.path.insert(0, str(REPO))
from benchmarks.holdout_proxy import with_classifier
from vision import evaluate as ev
from vision.twostage.quantize import quantize_two_stage

WORK = REPO / "work/s32/proxy"
SETTINGS = {"classifier": {"twins": {"below": 0.9, "likeness": 0.93}}}
cmd_train = sorted(Path("/work/shared/datasets/cmd/images/train").glob("*"))
synth = sorted((REPO / "work/s24/synth_train/images/train").glob("*"))
random.Random(0).shuffle(cmd_train); random.Random(0).shuffle(synth)
PAIRS = [
    ("gleitz96", REPO / "work/s24/synth_gleitz/data.yaml", REPO / "work/s24/folds96/gleitz_photo.pt", cmd_train[:150]),
    ("ffalt96", REPO / "work/s24/synth_ffalt/data.yaml", REPO / "work/s24/folds96/ffalt_photo.pt", cmd_train[:150]),
    ("cmd96", REPO / "datasets/cmd.yaml", REPO / "work/s24/folds96/cmd_photo.pt", synth[:150]),
]
variants = sys.argv[1].split(",") if len(sys.argv) > 1 else ["int8", "int8det"]
for name, data, ckpt, calib in PAIRS:
    base = WORK / f"{name}_f32"
    if not base.exists():
        with_classifier(REPO / "work/model_cpu_fold_n", ckpt, base, SETTINGS)
    for variant in variants:
        report = WORK / f"{name}_{variant}.json"
        if report.exists():
            continue
        model = WORK / f"{name}_{variant}_model"
        if not model.exists():
            quantize_two_stage(base, model, calib, stages=["detector"] if variant.endswith("det") else ["detector", "classifier"])
        predictor, backend = ev.detector_predictor(model)
        read = ev.evaluate(predictor, ev.labelled_images(data), 0.25, f"{name} {variant}", str(data), top_k=15)
        report.write_text(json.dumps({"photos": read.images, "tiles": read.true_tiles, "tile_errors": read.tile_errors,
                                      "missed": read.missed, "misclassified": read.misclassified, "extra": read.extra,
                                      "top_confusions": [[f"{c.true}->{c.predicted}", c.count] for c in read.top_confusions]}, indent=1))
        f32 = json.loads((REPO / f"work/exp31/twins/{name}_0.9_0.93.json").read_text())
        print(name, variant, read.tile_errors, "f32", f32["tile_errors"], flush=True)
