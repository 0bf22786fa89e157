"""Hold-out proxy fold readers (session 31's, work/s32/proxy/*_f32) read as 0.18.8 reads (numeral view beside), with
variants of the tile detector and the classifier precision. usage: proxy_variants.py VARIANT[,VARIANT] [PAIR,...]
  det480: the shipped INT8 480 px detector (0.18.8);  det416: work/s34/model_416's INT8 416 px detector
  det416_q8cN: det416 + the fold classifier in INT8, its first N layers and its head left in float"""
import json, sys, random, shutil
from pathlib import Path
REPO = Path("/work/main"); sys.path.insert(0, str(REPO))
from vision import evaluate as ev

WORK = REPO / "work/s34/proxy"; WORK.mkdir(parents=True, exist_ok=True)
cmd_train = sorted(Path("/work/shared/datasets/cmd/images/train").glob("*"))
synth = sorted((REPO / "work/s24/synth_train/images/train").glob("*"))
random.Random(0).shuffle(cmd_train); random.Random(0).shuffle(synth)
PAIRS = {"gleitz96": (REPO / "work/s24/synth_gleitz/data.yaml", cmd_train[:150]),
         "ffalt96": (REPO / "work/s24/synth_ffalt/data.yaml", cmd_train[:150]),
         "cmd96": (REPO / "datasets/cmd.yaml", synth[:150])}
DETECTORS = {"det480": REPO / "models/current", "det416": REPO / "work/s34/model_416"}

def build(name, variant):
    model = WORK / f"{name}_{variant}"
    if model.exists(): return model
    det = variant.split("_")[0]
    staged = WORK / f".{name}_{variant}"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(REPO / f"work/s32/proxy/{name}_f32", staged)
    shutil.rmtree(staged / "detector"); shutil.copytree(DETECTORS[det] / "detector", staged / "detector")
    meta = json.loads((staged / "meta.json").read_text()); src = json.loads((DETECTORS[det] / "meta.json").read_text())
    meta["detector"] = src["detector"]; meta["imgsz"] = src["imgsz"]; meta["characters"]["numeral_view"] = "beside"
    meta["classifier"]["twins"] = {"below": 0.9, "likeness": 0.93}
    (staged / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    if "_q8c" in variant:
        import vision.twostage.quantize as q
        floats = int(variant.split("_q8c")[1])
        orig = q._nncf_settings
        def settings(nncf, model, classifier):
            s = orig(nncf, model, classifier)
            if classifier:
                keep = tuple(f"__module.model.{i}." for i in range(floats)) + ("__module.model.10",)
                s["ignored_scope"] = nncf.IgnoredScope(names=[op.get_friendly_name() for op in model.get_ordered_ops()
                                                              if op.get_friendly_name().startswith(keep)], validate=False)
            return s
        q._nncf_settings = settings
        out = WORK / f".{name}_{variant}_q"
        shutil.rmtree(out, ignore_errors=True)
        q.quantize_two_stage(staged, out, PAIRS[name][1], stages=["classifier"])
        q._nncf_settings = orig
        shutil.rmtree(staged); staged = out
    staged.rename(model)
    return model

variants = sys.argv[1].split(",")
pairs = sys.argv[2].split(",") if len(sys.argv) > 2 else list(PAIRS)
for name in pairs:
    data = PAIRS[name][0]
    for variant in variants:
        report = WORK / f"{name}_{variant}.json"
        if report.exists(): continue
        model = build(name, variant)
        predictor, backend = ev.detector_predictor(model)
        read = ev.evaluate(predictor, ev.labelled_images(data), 0.25, f"{name} {variant}", str(data), top_k=15)
        report.write_text(json.dumps({"model": str(model), "photos": read.images, "tiles": read.true_tiles, "tile_errors": read.tile_errors,
                                      "missed": read.missed, "misclassified": read.misclassified, "extra": read.extra,
                                      "top_confusions": [[f"{c.true}->{c.predicted}", c.count] for c in read.top_confusions]}, indent=1))
        print(name, variant, read.tile_errors, read.missed, read.misclassified, read.extra, flush=True)
