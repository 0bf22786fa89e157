"""Crop classifier on tile sets it never saw: leave one tile set out of training, read that set's crops.

The target "tile accuracy on photos of tile sets that are not in the training data" is measured on photos we do not
have. This is the nearest honest proxy here: the crops of a two-stage crop dataset (`mjsnap train-two-stage crops`)
are grouped by tile set — the real cmd photos, and each art set of ../shared/tileart or our drawn faces for the
synthetic photos (the photo's layout JSON names its face style) — and for each held-out set a classifier is trained
on the crops of all the other sets, then reads the held-out set's crops. Each augmentation recipe of
vision.twostage.fastcls (AUGMENTATIONS) is trained on the same crops from the same start for the same wall time, so
the recipes compare within one run.

It scores recipes, not the shipped model (which saw every set): every fold starts from the mahjong-detector weights
(vision.pretrained: trained on someone else's photos, none of these sets), trains for --minutes (or --epochs, which
unlike wall time does not depend on how busy the machine is), and its last epoch is read (no checkpoint is chosen
on the held-out set). Only the 34 face classes are read: backs and flowers of the synthetic photos are drawn by our
renderer for every set.

    .venv/bin/python benchmarks/unseen_sets.py [--crops work/twostage/crops] [--minutes 4 | --epochs 8 --minutes 30]
                                               [--per-class 600] [--folds cmd,fluffystuff,gleitz,ffalt]
                                               [--augmentations photo,style] [--keep-weights DIR]

Writes benchmarks/results/unseen_sets.json and unseen_sets.md after every fold; a rerun with the same settings keeps
the folds already there and trains the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision.twostage.crops import SOURCES_FILE, class_folder, class_id_of_folder  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
FACE_CLASSES = 34  # 1m..P; back and flower are drawn by the renderer in every synthetic set
SET_OF_STYLE = {"fluffy_regular": "fluffystuff", "fluffy_black": "fluffystuff", "gleitz": "gleitz",
                "ffalt_uni": "ffalt", "ffalt_unib": "ffalt"}


def tile_set_of_style(style: str) -> str:
    """The tile set a synthetic photo's face style belongs to ("drawn:<scheme>" styles are all ours)."""
    if style.startswith("drawn:"):
        return "drawn"
    if style not in SET_OF_STYLE:
        raise ValueError(f"unknown face style {style!r} in a synthetic layout")
    return SET_OF_STYLE[style]


def photo_tile_sets(sources: dict) -> dict[str, Callable[[str], str]]:
    """crop prefix (s0_) -> a function from the photo stem to its tile set. A real-photo source (no layouts) is one
    tile set named after its dataset folder (DATASET/images/SPLIT: cmd)."""
    def synthetic(layouts: Path) -> Callable[[str], str]:
        return lambda stem: tile_set_of_style(json.loads((layouts / f"{stem}.json").read_text())["scene"]["style"])

    def real(dataset: str) -> Callable[[str], str]:
        return lambda _stem: dataset

    lookup = {}
    for prefix, source in sources.items():
        images = Path(source["folder"])
        layouts = images.parent.parent / "layouts" / images.name
        lookup[prefix] = synthetic(layouts) if layouts.is_dir() else real(images.parent.parent.name)
    return lookup


def group_crops(crops: Path) -> dict[str, list[tuple[Path, int]]]:
    """tile set -> [(crop path, class id)] over both splits of a crop dataset."""
    sources = json.loads((crops / SOURCES_FILE).read_text())
    lookup = photo_tile_sets(sources)
    cache: dict[tuple[str, str], str] = {}
    groups: dict[str, list[tuple[Path, int]]] = {}
    for split in ("train", "val"):
        for class_dir in sorted(p for p in (crops / split).iterdir() if p.is_dir()):
            class_id = class_id_of_folder(class_dir.name)
            for path in class_dir.iterdir():
                prefix, rest = path.name.split("_", 1)
                stem = rest.rsplit("_", 2)[0]  # NAME is s<n>_<photo stem>_<tile>_<copy>.png
                key = (prefix + "_", stem)
                if key not in cache:
                    cache[key] = lookup[prefix + "_"](stem)
                groups.setdefault(cache[key], []).append((path, class_id))
    return groups


def sample_per_class(items: list[tuple[Path, int]], limit: int, rng: np.random.Generator,
                     classes: int = len(CLASS_NAMES)) -> list[tuple[Path, int]]:
    by_class: dict[int, list[tuple[Path, int]]] = {}
    for item in items:
        if item[1] < classes:
            by_class.setdefault(item[1], []).append(item)
    chosen = []
    for class_id in sorted(by_class):
        pool = by_class[class_id]
        picks = rng.permutation(len(pool))[:limit]
        chosen += [pool[i] for i in picks]
    return chosen


def link_split(items: list[tuple[Path, int]], folder: Path) -> None:
    for class_id in range(len(CLASS_NAMES)):
        (folder / class_folder(class_id)).mkdir(parents=True, exist_ok=True)
    for n, (path, class_id) in enumerate(items):
        (folder / class_folder(class_id) / f"{n}_{path.name}").symlink_to(path.resolve())


def predictions(checkpoint: Path, items: list[tuple[Path, int]]) -> np.ndarray:
    import cv2
    import torch

    from vision.twostage.fastcls import predict_classes

    model = torch.load(str(checkpoint), map_location="cpu", weights_only=False)["model"].float()
    return predict_classes(model, np.stack([cv2.imread(str(p), cv2.IMREAD_COLOR)[:, :, ::-1] for p, _ in items]))


def read_fold(truth: np.ndarray, predicted: np.ndarray) -> dict:
    recall = {CLASS_NAMES[c]: round(float((predicted[truth == c] == c).mean()), 3)
              for c in range(FACE_CLASSES) if (truth == c).any()}
    confusions = Counter((CLASS_NAMES[t], CLASS_NAMES[p]) for t, p in zip(truth, predicted) if t != p)
    return {"crops": int(len(truth)), "top1": round(float((truth == predicted).mean()), 4),
            "worst_recall": dict(sorted(recall.items(), key=lambda kv: kv[1])[:5]),
            "top_confusions": [f"{t}->{p} x{n}" for (t, p), n in confusions.most_common(5)]}


def run_fold(held_out: str, groups: dict, augmentation: str, args, start: Path, tmp: Path) -> dict:
    from vision.twostage.fastcls import train_fast_classifier

    rng = np.random.default_rng(args.seed)
    training = [item for name, items in groups.items() if name != held_out for item in items]
    train_items = sample_per_class(training, args.per_class, rng)
    chosen = set(train_items)
    seen_items = sample_per_class([i for i in training if i not in chosen], args.eval_per_class, rng, FACE_CLASSES)
    unseen_items = sample_per_class(groups[held_out], args.eval_per_class, rng, FACE_CLASSES)
    fold = tmp / f"{held_out}_{augmentation}"
    link_split(train_items, fold / "crops" / "train")
    link_split(unseen_items, fold / "crops" / "val")
    run = train_fast_classifier(fold / "crops", fold / "run", minutes=args.minutes, max_epochs=args.epochs or 1000,
                                pretrained=start, augmentation=augmentation, seed=args.seed)
    curve = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    last = run / "weights" / "last.pt"
    if args.keep_weights is not None:  # e.g. to read whole hands of the held-out set (normalizer.py --art-style)
        args.keep_weights.mkdir(parents=True, exist_ok=True)
        shutil.copy2(last, args.keep_weights / f"{held_out}_{augmentation}.pt")
    result = {"held_out": held_out, "augmentation": augmentation, "train_crops": len(train_items),
              "epochs": len(curve), "curve": [c["val_top1"] for c in curve],
              "unseen": read_fold(np.array([c for _, c in unseen_items]), predictions(last, unseen_items)),
              # a small crop dataset may give every crop of the other sets to training: nothing seen is left to read
              "seen": read_fold(np.array([c for _, c in seen_items]), predictions(last, seen_items)) if seen_items else None}
    print(f"[unseen-sets benchmark] {json.dumps(result)}", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--crops", type=Path, default=REPO / "work" / "twostage" / "crops")
    parser.add_argument("--minutes", type=float, default=4.0, help="training wall time of every fold and recipe")
    parser.add_argument("--epochs", type=int, default=None,
                        help="train every fold for exactly this many epochs (with --minutes as a generous ceiling): "
                             "unlike wall time, it does not depend on how busy the machine is")
    parser.add_argument("--per-class", type=int, default=600, help="training crops per class")
    parser.add_argument("--eval-per-class", type=int, default=150, help="crops read per class, seen and unseen")
    parser.add_argument("--folds", default="cmd,fluffystuff,gleitz,ffalt", help="tile sets to hold out, one per fold")
    parser.add_argument("--augmentations", default="photo,style", help="vision.twostage.fastcls AUGMENTATIONS")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--keep-weights", type=Path, default=None,
                        help="copy each fold's classifier here as HELD-OUT_AUGMENTATION.pt")
    args = parser.parse_args()
    if not (args.crops / SOURCES_FILE).is_file():
        raise SystemExit(f"{args.crops} is not a crop dataset with {SOURCES_FILE}: run `mjsnap train-two-stage crops`")
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    from mjsnap.commands.train import PRETRAINED_MAHJONG_DETECTOR, _pretrained_start

    groups = group_crops(args.crops)
    sizes = {name: len(items) for name, items in sorted(groups.items())}
    print(f"[unseen-sets benchmark] crops per tile set: {sizes}", flush=True)
    folds = args.folds.split(",")
    missing = [name for name in folds if name not in groups]
    if missing:
        raise SystemExit(f"no crops of {', '.join(missing)} in {args.crops}; tile sets there: {', '.join(sizes)}")
    start = _pretrained_start(PRETRAINED_MAHJONG_DETECTOR)
    settings = {"crops": str(args.crops), "crops_per_tile_set": sizes, "minutes": args.minutes, "epochs": args.epochs,
                "per_class": args.per_class, "eval_per_class": args.eval_per_class, "seed": args.seed,
                "start": "mahjong-detector (vision.pretrained)"}
    results = finished_folds(args.out / "unseen_sets.json", settings)
    done = {(r["held_out"], r["augmentation"]) for r in results}
    with tempfile.TemporaryDirectory(prefix="mjsnap-unseen-") as tmp:
        for held_out in folds:
            for augmentation in args.augmentations.split(","):
                if (held_out, augmentation) in done:
                    print(f"[unseen-sets benchmark] {held_out} / {augmentation}: kept from the last run", flush=True)
                    continue
                results.append(run_fold(held_out, groups, augmentation, args, start, Path(tmp)))
                write_report(args.out, settings, results)  # after every fold: a stopped run resumes from here
    print(markdown(json.loads((args.out / "unseen_sets.json").read_text())))


def finished_folds(report: Path, settings: dict) -> list[dict]:
    """Folds an earlier run with the same settings wrote (a fold trains for minutes; a stop should not lose them)."""
    if not report.is_file():
        return []
    earlier = json.loads(report.read_text())
    return earlier["folds"] if all(earlier.get(k) == v for k, v in settings.items()) else []


def write_report(out: Path, settings: dict, results: list[dict]) -> None:
    report = {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
              "load_average": os.getloadavg(), **settings, "folds": results}
    out.mkdir(parents=True, exist_ok=True)
    (out / "unseen_sets.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "unseen_sets.md").write_text(markdown(report))


def _length(report: dict) -> str:
    if report.get("epochs"):
        return f"{report['epochs']} epochs (at most {report['minutes']} min)"
    return f"{report['minutes']} min"


def markdown(report: dict) -> str:
    recipes = list(dict.fromkeys(f["augmentation"] for f in report["folds"]))
    lines = [
        "# Crop classifier on tile sets it never saw (leave one set out)", "",
        f"{report['created']}, {report['machine']}, load average "
        f"{', '.join(f'{x:.1f}' for x in report['load_average'])} at the end. Crops: {report['crops']} "
        f"({', '.join(f'{k} {v}' for k, v in report['crops_per_tile_set'].items())}). Every fold and recipe: "
        f"{report['per_class']} training crops per class from the other sets, {_length(report)} from "
        f"{report['start']}, the last epoch read on up to {report['eval_per_class']} crops per face class of the "
        "held-out set (unseen) and of the training sets' other crops (seen).", "",
        "| held-out set | " + " | ".join(f"{r} unseen top-1 | {r} seen top-1" for r in recipes) + " |",
        "|---" * (1 + 2 * len(recipes)) + "|",
    ]
    by_fold: dict[str, dict[str, dict]] = {}
    for fold in report["folds"]:
        by_fold.setdefault(fold["held_out"], {})[fold["augmentation"]] = fold
    for held_out, runs in by_fold.items():
        cells = [(runs[r]["unseen"]["top1"], (runs[r]["seen"] or {"top1": "(none left)"})["top1"]) if r in runs else ("", "")
                 for r in recipes]
        lines.append(f"| {held_out} | " + " | ".join(f"{a} | {b}" for a, b in cells) + " |")
    means = [np.mean([runs[r]["unseen"]["top1"] for runs in by_fold.values() if r in runs]) for r in recipes]
    lines.append("| mean | " + " | ".join(f"{m:.4f} | " for m in means) + " |")
    lines += ["", "## Weakest classes and confusions on the held-out set", "",
              "| held-out set | recipe | epochs | worst recall | top confusions |", "|---|---|---|---|---|"]
    for fold in report["folds"]:
        worst = ", ".join(f"{k} {v}" for k, v in fold["unseen"]["worst_recall"].items())
        lines.append(f"| {fold['held_out']} | {fold['augmentation']} | {fold['epochs']} | {worst} | "
                     f"{', '.join(fold['unseen']['top_confusions'])} |")
    lines += ["", "Reading these figures: a proxy for the target on tile sets outside the training data, for choosing "
              "a training recipe. Each fold trains briefly on a sample of the crops, so its levels sit below the "
              "shipped classifier's; the gap between seen and unseen, and between recipes in the same run, is what "
              "they measure. Crops come from labelled boxes (jittered), not from the detector."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
