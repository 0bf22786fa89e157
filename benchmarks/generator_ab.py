"""Does one change to the generator teach the hold-out classifier to read a real tile set better?

The hold-out proxy's crop classifier (synthetic crops only, from mahjong-detector's backbone: real photos are then a
tile set it never saw) is trained twice per seed, on crops drawn by the generator as it was before the change (the
experiment's old arm) and as it is (arm `today`), and both read the same real crops. Experiments (--experiment):

- `back_colours` (session 18), arms `ivory` / `today`: until then one back colour in twelve
  (vision.synth.tile.BACK_COLOURS) was ivory (240, 236, 225), a face-down tile as pale as the face, that is a blank
  白 drawn with the label `back`; and a back could be as dark as a dark-faced set's face.
- `sticks` (session 19, results in benchmarks/results/sticks.md): three ways to draw a bamboo stick, one-ink sets
  and spaced rows read real bamboo worse than the filled bars, so the generator went back to them; the drawing and
  this experiment's arm are in commit 8c75073.
- `cursive_fonts` (session 22), arms `no_cursive` / `today`: until then the drawn sets had no grass-script font
  (vision.synth.fonts "grass" and "cursive", in which 萬 東 發 take their cursive forms).
- `painted_pictures` and `painted_birds` (session 23, results in benchmarks/results/painted_pictures.md and
  painted_birds.md), arms `cartoon` / `today`: birds and flowers, then birds alone, also drawn as real sets paint
  them in brush strokes; whole photos read worse, so they went again; the drawings and `painted_pictures`' arm are
  in commit 706ea44 (`painted_birds` drew that commit's birds without its flowers, its old arm patching only
  vision.synth.drawn.BIRD_STYLES back to the four cartoons).
- `inked_fa` (session 23, results in benchmarks/results/inked_fa.md), arms `green_fa` / `today`: 發 inked like the
  numerals in 3 drawn sets in 10 (cmd's 發 is mostly near-black); no gain, so every drawn 發 is green again; the
  change and this experiment's arm are in commit e456175.

Experiments that change the classifier's training rather than the drawing (`changes="training"`) train both arms on
the same crops:
- `grey_backs` (session 21), arms `grey` / `today`: until then a face-down tile's crop was turned grey as often as
  any other (vision.twostage.fastcls.GREY_SHARE), and a grey yellow or pink back is a pale blank tile labelled `back`.
- `face_zoom` (session 21), arms `whole_tile` / `today`: until then every training crop showed the whole tile and
  its edge; real labels and a detector trained on them (cmd's) often box only the face's art, and a blank 白 cut that
  way is a white patch with no edge. vision.twostage.fastcls.FACE_ZOOM_SHARE of the crops are now zoomed in further.
- `face_zoom_share` (session 21), arms `fifth` / `today`: FACE_ZOOM_SHARE 0.2, as `face_zoom` chose it, against the
  share the code has now.
- `soft_crops` (session 26, results in benchmarks/results/soft_crops.md), arms `sharp` / `today`, both at 96 px: a
  third of the training crops shrunk and enlarged back, as soft as cmd's small tiles enlarged to 96 px; real crops
  read worse with every seed and whole photos no better, so it went again; the change, this experiment's arm and
  `Experiment.crops_at` (a training experiment with both arms at a size not the code's) are in commit 222b773.

An experiment may also ask about a change not made (`crop_size` != None): its other arm cuts every crop, synthetic
and real, at that side in pixels and its classifier reads at it:
- `crop_size_96` (session 24), arms `px96` / `today`: crops of 96 px instead of 64, as a larger input might tell
  二 from 三 and count dots and sticks (it does: every unseen set read better, benchmarks/results/crop_size_96.md;
  no shipped classifier reads 96 px yet); the other arm's real crops are --real-at-size's (the same tiles cut at 96 px:
  `mjsnap train-two-stage crops --data datasets/cmd.yaml --out work/cmd_crops96 --per-class-limit 1200 --size 96`,
  then `scripts/gpu_classifier.py prepare --crops work/cmd_crops96 --out work/devcarry96`).

Per seed and arm: vision.twostage.fastcls for --epochs on crops that scripts/gpu_classifier.py's first stage draws
on 2 workers for --seconds, at most --per-class training crops a class (seeds SEED and SEED+1, as that script
numbers its workers); then top-1, per-class recall and top confusions on the real crops (--real, class folders of
crops cut from real photos, e.g. cmd val as `scripts/gpu_classifier.py prepare` writes them) and on the arm's own
generated val crops. Every run is kept in WORK/EXPERIMENT/SEED_ARM.json (its classifier in SEED_ARM.pt), so an
interrupted benchmark continues; a training experiment's crops are kept in WORK/crops/SEED for every training
experiment.

    .venv/bin/python benchmarks/generator_ab.py --experiment back_colours [--seeds 100,200] [--seconds 150]
        [--per-class 500] [--epochs 8] [--real .devcarry/cmd_crops/val] [--tileart ../shared/tileart] [--work work]

Writes benchmarks/results/EXPERIMENT.json and EXPERIMENT.md.

--read-photos' model (session 22's work/model_cpu_fold_n): a copy of models/current without classifier_2/ and
without meta classifier.ensemble and ensemble_below (that classifier learnt cmd); its classifier/ is replaced by
each run's. The real crops: `mjsnap train-two-stage crops --data datasets/cmd.yaml --out work/cmd_crops
--per-class-limit 1200`, then `scripts/gpu_classifier.py prepare --crops work/cmd_crops --out .devcarry`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from unittest import mock
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring.tiles import CLASS_NAMES  # noqa: E402
from benchmarks.holdout_proxy import read_photos  # noqa: E402
from scripts import gpu_classifier  # noqa: E402  (imported by name, so its forked crop workers unpickle)
from vision.synth import drawn, scene, tile  # noqa: E402
from vision.twostage import crops as crops_module  # noqa: E402
from vision.twostage import fastcls  # noqa: E402

IVORY = (240, 236, 225)
REAL_PREFIX = "real_"
CODE_CROP_SIZE = crops_module.CropSettings().size
TODAY = "today"


@contextlib.contextmanager
def with_ivory_backs():
    """The back colours as drawn before session 18: ivory tenth of twelve, any back on any face."""
    saved = tile.BACK_COLOURS, scene.back_unlike_face
    tile.BACK_COLOURS = (*saved[0][:10], IVORY, *saved[0][10:])
    scene.back_unlike_face = lambda back, face: back
    try:
        yield
    finally:
        tile.BACK_COLOURS, scene.back_unlike_face = saved


def without_cursive_fonts():
    """The drawn sets' fonts before session 22: no grass-script or cursive font."""
    return mock.patch.object(drawn, "FONT_NAMES", tuple(f for f in drawn.FONT_NAMES if f not in ("grass", "cursive")))


def trained_with(**settings):
    """A context manager factory for a training experiment's old arm: inside it, vision.twostage.fastcls trains with
    these module settings (e.g. COLOUR_IS_CLASS=(): face-down tiles turned grey as often as any other)."""
    return lambda: mock.patch.multiple(fastcls, **settings)


@dataclass(frozen=True)
class Experiment:
    old_arm: str  # the name of the arm made the old way
    old_way: object  # a context manager factory: inside it, the generator draws (or the classifier trains) the old way
    focus: tuple[str, ...]  # the classes the change is about: their real recall is reported
    title: str
    changes: str = "generator"  # or "training": both arms train on the same crops, drawn once per seed
    crop_size: int | None = None  # the other arm's crop side (and classifier input), when it is not the code's

    @property
    def arms(self) -> tuple[str, str]:
        return self.old_arm, TODAY


EXPERIMENTS = {
    "back_colours": Experiment("ivory", with_ivory_backs, ("P",), "Back colours and the hold-out classifier"),
    "grey_backs": Experiment("grey", trained_with(COLOUR_IS_CLASS=()), ("P",),
                             "Grey face-down tiles in the classifier's training", changes="training"),
    "face_zoom": Experiment("whole_tile", trained_with(FACE_ZOOM_SHARE=0.0), ("P",),
                            "Crops zoomed in to the face in the classifier's training", changes="training"),
    "cursive_fonts": Experiment("no_cursive", without_cursive_fonts, ("F", "9m"),
                                "Grass-script and cursive fonts in the drawn tile sets"),
    "face_zoom_share": Experiment("fifth", trained_with(FACE_ZOOM_SHARE=0.2), ("P",),
                                  "How many training crops to zoom in to the face", changes="training"),
    "crop_size_96": Experiment("px96", contextlib.nullcontext, ("2m", "3m", "6p", "7p", "8p", "6s", "9s"),
                               "Crops of 96 px for the hold-out classifier", crop_size=96),
}


def arm_crop_size(experiment: Experiment, arm: str) -> int | None:
    """The crop side `arm` cuts at, when it is not the code's."""
    return experiment.crop_size if arm != TODAY else None


@contextlib.contextmanager
def arm_as(experiment: Experiment, arm: str):
    """Inside it, the generator draws and the classifier trains as `arm` of `experiment` asks."""
    if arm not in experiment.arms:
        raise ValueError(f"unknown arm {arm!r}; expected one of {experiment.arms}")
    with contextlib.nullcontext() if arm == TODAY else experiment.old_way():
        yield


def link_real(real: Path, val: Path) -> int:
    """Hard-link the real crops into the val class folders under names starting with REAL_PREFIX."""
    count = 0
    for folder in sorted(p for p in real.iterdir() if p.is_dir()):
        (val / folder.name).mkdir(parents=True, exist_ok=True)
        for path in sorted(folder.iterdir()):
            os.link(path, val / folder.name / f"{REAL_PREFIX}{path.name}")
            count += 1
    return count


def read_crops(model, images: np.ndarray, labels: np.ndarray) -> dict:
    from vision.twostage.fastcls import predict_classes

    predicted = predict_classes(model, images)
    wrong = Counter((CLASS_NAMES[a], CLASS_NAMES[b]) for a, b in zip(labels, predicted) if a != b)
    back = CLASS_NAMES.index("back")
    return {
        "crops": int(len(labels)),
        "top1": round(float((predicted == labels).mean()), 4),
        "read_as_back": int(((predicted == back) & (labels != back)).sum()),
        "recall": {name: round(float((predicted[labels == i] == i).mean()), 3)
                   for i, name in enumerate(CLASS_NAMES) if (labels == i).any()},
        "top_confusions": [[f"{a}->{b}", n] for (a, b), n in wrong.most_common(10)],
        "confusions": {f"{a}->{b}": n for (a, b), n in wrong.most_common()},
    }


def run_arm(experiment: Experiment, seed: int, arm: str, args: argparse.Namespace, start: Path,
            work: Path) -> dict:
    import torch

    from vision.twostage.fastcls import load_split, train_fast_classifier

    with tempfile.TemporaryDirectory(prefix="mjsnap-generator-ab-", dir=work) as tmp:
        if experiment.changes == "training":
            crops, stats = shared_crops(seed, args)
        else:
            crops = Path(tmp) / "crops"
            with arm_as(experiment, arm):
                size = arm_crop_size(experiment, arm)
                stats = draw_crops(crops, seed, args, args.real_at_size if size else args.real, size)
        with arm_as(experiment, arm):
            run = train_fast_classifier(crops, Path(tmp) / "run", minutes=args.minutes, max_epochs=args.epochs,
                                        batch=128, lr=0.002, pretrained=start, val_name_prefix=REAL_PREFIX, threads=2,
                                        seed=seed)
        shutil.copy2(run / "weights" / "last.pt", work / f"{seed}_{arm}.pt")  # for a read of whole photos with it
        model = torch.load(str(run / "weights" / "last.pt"), map_location="cpu", weights_only=False)["model"].float()
        images, labels, names = load_split(crops / "val")
        real = np.array([n.startswith(REAL_PREFIX) for n in names])
        return {"seed": seed, "arm": arm, "photos": sum(s["photos"] for s in stats),
                "training_crops": sum(s["train"] for s in stats),
                "real": read_crops(model, images[real], labels[real]),
                "generated": read_crops(model, images[~real], labels[~real])}


def draw_crops(crops: Path, seed: int, args: argparse.Namespace, real: Path, size: int | None = None) -> list[dict]:
    """Synthetic training and val crops of one seed cut at `size` px (None: the code's), and the `real` crops linked
    into val."""
    stats = gpu_classifier.make_synthetic_crops(crops, 2, args.seconds, str(args.tileart), args.per_class, seed, size)
    link_real(real, crops / "val")
    return stats


def shared_crops(seed: int, args: argparse.Namespace) -> tuple[Path, list[dict]]:
    """The crops of one seed for training experiments, drawn the first time (today's generator) and kept."""
    crops = args.work / "crops" / str(seed)
    done = crops / "stats.json"  # written last: a folder without it is an interrupted drawing
    if not done.is_file():
        shutil.rmtree(crops, ignore_errors=True)
        done.parent.mkdir(parents=True)
        done.write_text(json.dumps(draw_crops(crops, seed, args, args.real)))
    return crops, json.loads(done.read_text())


def focus_confusions(read: dict, focus: tuple[str, ...]) -> list[tuple[str, int]]:
    """Confusions of the focus classes (true class first), most first; runs kept before session 19 list only the
    top ten confusions of all classes."""
    pairs = read.get("confusions", dict(read["top_confusions"]))
    found = [(pair, n) for pair, n in pairs.items() if pair.split("->")[0] in focus]
    return sorted(found, key=lambda item: -item[1])


def markdown(result: dict, experiment: Experiment) -> str:
    s, focus = result["settings"], experiment.focus
    name = focus[0] if len(focus) == 1 else f"{focus[0]}-{focus[-1]}"

    def recall(read: dict) -> float:
        return float(np.mean([read["recall"].get(c, np.nan) for c in focus]))

    if experiment.crop_size:
        arms = (f"trained on crops of today's generator cut at the code's {CODE_CROP_SIZE} px (`{TODAY}`) and at "
                f"{experiment.crop_size} px (`{experiment.old_arm}`, which reads its real crops from "
                f"`{s.get('real_at_size')}`: the same tiles cut at that size)")
    elif experiment.changes == "training":
        arms = (f"trained on the same crops of today's generator the way it was trained before the change "
                f"(`{experiment.old_arm}`) and the way it is (`{TODAY}`)")
    else:
        arms = (f"trained on crops of the generator as it was before the change (`{experiment.old_arm}`) and as it is "
                f"(`{TODAY}`)")
    lines = [
        f"# {experiment.title} ({result['date']})", "",
        f"`benchmarks/generator_ab.py --experiment {result['experiment']}`: per seed, the hold-out proxy's classifier "
        f"(yolo11n-cls from mahjong-detector's backbone, {s['epochs']} epochs, synthetic crops only: {s['seconds']:g} s "
        f"of drawing on 2 workers, at most {s['per_class']} training crops a class) {arms}, then read on "
        f"{s['real_crops']} real crops (`{s['real']}`) and on generated val crops. {result['machine']}.",
        "", f"| seed | arm | photos drawn / training crops | real top-1 | real `{name}` recall | real `{name}` confusions "
        f"| real read as `back` | real top confusions | generated top-1 | generated `{name}` recall | note |",
        "|---|---|---|---:|---:|---|---:|---|---:|---:|---|",
    ]
    for r in result["runs"]:
        real, gen = r["real"], r["generated"]
        confusions = ", ".join(f"{c} {n}" for c, n in real["top_confusions"][:4])
        focused = ", ".join(f"{c} {n}" for c, n in focus_confusions(real, focus)[:4])
        lines.append(f"| {r['seed']} | {r['arm']} | {r['photos']:,} / {r['training_crops']:,} | {real['top1']:.4f} | "
                     f"{recall(real):.3f} | {focused} | "
                     f"{real['read_as_back']} | {confusions} | {gen['top1']:.4f} | {recall(gen):.3f} | "
                     f"{r.get('note', '')} |")
    for arm in experiment.arms:
        runs = [r for r in result["runs"] if r["arm"] == arm]
        if runs:
            lines.append(f"| mean | {arm} | | {np.mean([r['real']['top1'] for r in runs]):.4f} | "
                         f"{np.mean([recall(r['real']) for r in runs]):.3f} | | "
                         f"{np.mean([r['real']['read_as_back'] for r in runs]):.1f} | | "
                         f"{np.mean([r['generated']['top1'] for r in runs]):.4f} | "
                         f"{np.mean([recall(r['generated']) for r in runs]):.3f} | |")
    read = [r for r in result["runs"] if "whole_photos" in r]
    if read:
        first = read[0]["whole_photos"]
        lines += ["", f"Whole photos: the val photos of `{s['photos']}` ({first['photos']} photos, {first['tiles']:,} "
                  f"tiles) read by `{s['read_photos']}` (its tile detector and reading steps) with the run's classifier "
                  "in place of its own; tile errors at confidence 0.25.", "",
                  "| seed | arm | tile errors | missed / misread / extra | tiles read right |", "|---|---|---:|---|---:|"]
        lines += [f"| {r['seed']} | {r['arm']} | {w['tile_errors']} | {w['missed']} / {w['misclassified']} / "
                  f"{w['extra']} | {w['tile_accuracy']:.2%} |" for r in read for w in [r["whole_photos"]]]
        paired = {r["seed"] for r in read if r["arm"] == experiment.old_arm} & {r["seed"] for r in read if r["arm"] == TODAY}
        for arm in experiment.arms:
            mine = [r["whole_photos"] for r in read if r["arm"] == arm and r["seed"] in paired]
            if mine:
                lines.append(f"| mean of seeds {', '.join(map(str, sorted(paired)))} | {arm} | "
                             f"{np.mean([m['tile_errors'] for m in mine]):.1f} | | "
                             f"{np.mean([m['tile_accuracy'] for m in mine]):.2%} |")
    lines += ["", "Drawing runs for a fixed time, so a run drawn while other work used the cores has fewer photos behind "
              "the same number of crops (at most the per-class cap), that is less variety.",
              "", f"`{TODAY}` is the code as it was when the run was made: kept runs are not made again, so a later "
              "change to the generator or the training is not in them."]
    if experiment.changes == "training":
        lines.append("Both arms of a seed trained on the same crops and read the same generated val crops.")
    else:
        lines.append("Generated val crops are each arm's own, so those columns compare each classifier with the photos "
                     "it was drawn for, not the two on the same crops.")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--experiment", required=True, choices=sorted(EXPERIMENTS))
    parser.add_argument("--seeds", default="100,200")
    parser.add_argument("--seconds", type=float, default=150)
    parser.add_argument("--per-class", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--minutes", type=float, default=40, help="training wall-time cap per run")
    parser.add_argument("--real", type=Path, default=REPO / ".devcarry" / "cmd_crops" / "val")
    parser.add_argument("--real-at-size", type=Path, default=None, metavar="DIR",
                        help="the same real crops cut at the experiment's crop_size, for its other arm")
    parser.add_argument("--tileart", type=Path, default=REPO.parent / "shared" / "tileart")
    parser.add_argument("--work", type=Path, default=REPO / "work", help="runs are kept under WORK/EXPERIMENT")
    parser.add_argument("--read-photos", type=Path, default=None, metavar="MODEL_DIR",
                        help="also read --photos' val photos whole with each run's classifier in this two-stage model "
                             "directory (the hold-out proxy's, e.g. work/model_cpu_fold_n)")
    parser.add_argument("--photos", type=Path, default=REPO / "datasets" / "cmd.yaml")
    args = parser.parse_args()
    if args.read_photos is not None and not (args.read_photos / "meta.json").is_file():
        raise SystemExit(f"--read-photos {args.read_photos}: no meta.json there (a two-stage model directory)")
    experiment = EXPERIMENTS[args.experiment]
    for path, what in ((args.real, "real crops (class folders)"), (args.tileart, "the tile art")):
        if not path.is_dir():
            raise SystemExit(f"{path} does not exist: --{'real' if path == args.real else 'tileart'} names {what}")
    if experiment.crop_size and not (args.real_at_size and args.real_at_size.is_dir()):
        raise SystemExit(f"--experiment {args.experiment} cuts its other arm's crops at {experiment.crop_size} px: "
                         "--real-at-size must name the real crops cut at that size (class folders)")
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    from mjsnap.commands.train import PRETRAINED_MAHJONG_DETECTOR, _pretrained_start

    start = _pretrained_start(PRETRAINED_MAHJONG_DETECTOR)
    work = args.work / args.experiment
    work.mkdir(parents=True, exist_ok=True)
    runs = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for arm in experiment.arms:
            kept = work / f"{seed}_{arm}.json"
            if not kept.is_file():  # written whole once the run ends, so a kept file is a finished run
                kept.write_text(json.dumps(run_arm(experiment, seed, arm, args, start, work), indent=1))
            runs.append(json.loads(kept.read_text()))
            weights = work / f"{seed}_{arm}.pt"
            if args.read_photos is not None and weights.is_file():
                size = arm_crop_size(experiment, arm)
                runs[-1]["whole_photos"] = read_photos(weights, args.read_photos, args.photos, work / f"{seed}_{arm}_photos.json",
                                                       {"classifier": {"imgsz": size}} if size else None)
            print(json.dumps({k: runs[-1][k] for k in ("seed", "arm")} | {"real_top1": runs[-1]["real"]["top1"]}),
                  flush=True)
    settings = {"seeds": args.seeds, "seconds": args.seconds, "per_class": args.per_class, "epochs": args.epochs,
                "real": os.path.relpath(args.real, REPO), "real_crops": runs[0]["real"]["crops"]}
    if experiment.crop_size:
        settings["real_at_size"] = os.path.relpath(args.real_at_size, REPO)
    if args.read_photos is not None:
        settings |= {"read_photos": os.path.relpath(args.read_photos, REPO), "photos": os.path.relpath(args.photos, REPO)}
    result = {"experiment": args.experiment, "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "settings": settings,
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "runs": runs}
    folder = REPO / "benchmarks" / "results"
    (folder / f"{args.experiment}.json").write_text(json.dumps(result, indent=1))
    (folder / f"{args.experiment}.md").write_text(markdown(result, experiment))
    print(markdown(result, experiment))


if __name__ == "__main__":
    main()
