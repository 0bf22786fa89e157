"""A tile set the model has never seen: how many labelled photos of it does the retrain loop need?

A club whose tiles mjsnap reads poorly labels some of its photos (the app's corrections, or `mjsnap label`) and runs
`mjsnap train --data D --base models/current`. This benchmark runs that same code (vision.twostage.finetune: the
tile detector for --epochs, then the crop classifier for --classifier-epochs, then the export) from a BASE model
whose classifier never saw the set, on N labelled photos of the set for each N of --counts, and reads other photos
of the set with the base and with every candidate, same run, same photos.

The photos of the set (--photos, one labelled folder) are grouped by photo session (mjsnap.dataset.phash: a
Roboflow copy or a near-duplicate never lands on two sides) and shuffled by --seed: the photos of the first
--read-share of the sessions are read by every model; one photo of each of the next --val-photos sessions is each
fine-tune's val; one photo of each remaining session is there to train on, the N of a smaller count part of every
larger one. The default set is cmd val (../shared): real phone photos, unlike cmd train not Roboflow-augmented
(cmd train's copies are turned, mirrored or grey, with loose boxes: not what a club labels).

The hold-out proxy supplies a base (benchmarks/unseen_sets.py --keep-weights, exported behind the shipped tile
detector): for cmd, a classifier trained on synthetic crops only. Its tile detector did see cmd train, so the
detector's part is not a new set's. Finished counts are kept in WORK/new_set_seedS.json, so an interrupted run
continues where it stopped.

    .venv/bin/python benchmarks/new_set.py --base work/model_fold_cmd_floor [--photos ../shared/datasets/cmd/images/val]
        [--read-share 0.5] [--val-photos 8] [--counts 10,30,60] [--epochs 10] [--classifier-epochs 30]
        [--replay N] [--synthetic 120] [--seed 0] [--work work/new_set] [--out benchmarks/results/new_set]

Writes OUT/new_set.json and OUT/new_set.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.dataset.phash import cluster, hash_photo  # noqa: E402
from mjsnap.labels import data_yaml_text  # noqa: E402
from mjsnap.paths import shared_dir, shared_tileart  # noqa: E402
from vision.twostage.finetune import DEFAULT_CLASSIFIER_MINUTES  # noqa: E402
from vision.evaluate import detector_predictor, evaluate, label_path_for, load_labelled_folder  # noqa: E402
from vision.imageio import DATASET_SUFFIXES  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "new_set"
TILE_CONF = 0.25  # the operating confidence of `mjsnap detect`, as `mjsnap eval` counts tiles


def draw_sessions(pool: Path, seed: int) -> list[list[Path]]:
    """The pool's labelled photos grouped by photo session, in a random order fixed by ``seed``."""
    photos = sorted(p for p in Path(pool).iterdir() if p.suffix.lower() in DATASET_SUFFIXES and label_path_for(p).is_file())
    if not photos:
        raise SystemExit(f"{pool} holds no labelled photos (ultralytics layout: images/<split>, labels/<split>)")
    by_name = {p.stem: p for p in photos}
    groups = [[by_name[name] for name in group] for group in cluster([hash_photo(p) for p in photos])]
    random.Random(seed).shuffle(groups)
    return groups


def link_dataset(out: Path, splits: dict[str, list[Path]]) -> Path:
    """out/images/SPLIT and out/labels/SPLIT as links to the photos and their labels; returns out/data.yaml."""
    for split, photos in splits.items():
        for photo in photos:
            for kind, path in (("images", photo), ("labels", label_path_for(photo))):
                target = out / kind / split / path.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.symlink_to(path.resolve())
    (out / "data.yaml").write_text(data_yaml_text())
    return out / "data.yaml"


def read_set(model: Path, photos: Path) -> dict:
    """`mjsnap eval`'s figures for ``model`` on the labelled photos in the folder ``photos``."""
    predictor, backend = detector_predictor(model)
    report = evaluate(predictor, load_labelled_folder(photos), TILE_CONF, str(model), str(photos))
    recall = {c.name: c.recall for c in report.per_class}
    return {"backend": backend, **report.model_dump(include={"images", "true_tiles", "map50", "tile_accuracy", "tile_errors",
                                                             "missed", "misclassified", "extra", "exact_match"}),
            "back_recall": recall.get("back"),
            "top_confusions": [f"{c.true}->{c.predicted}: {c.count}" for c in report.top_confusions[:5]]}


def synthetic_photos(work: Path, photos: int) -> Path:
    """A folder of ``photos`` generated photos (vision.synth, seed 2026: drawn sets, and the art sets when ../shared
    is present), every tile labelled, face-down ones too: what a fine-tune on one club's photos may forget."""
    from vision.synth.scene import SynthOptions
    from vision.synth.writer import write_dataset

    folder = work / f"synthetic_{photos}"
    if not (folder / "done").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        for _ in write_dataset(folder, photos, 2026, val_fraction=0.0, options=SynthOptions(tileart=shared_tileart())):
            pass
        (folder / "done").write_text("")
    return folder / "images" / "train"


class Draw(NamedTuple):
    """Which photos of the set play which part: read by every model, each fine-tune's val, training (in order)."""

    read: list[Path]  # every photo of the first sessions
    val: list[Path]  # one photo of each of the next sessions
    train: list[Path]  # one photo of each remaining session; a fine-tune on N photos takes the first N


def draw(sessions: list[list[Path]], read_share: float, val_photos: int) -> Draw:
    read_sessions = round(len(sessions) * read_share)
    if not 0 < read_sessions < len(sessions) - val_photos:
        raise SystemExit(f"{len(sessions)} photo sessions cannot give {read_share:.0%} to reading and {val_photos} to val")
    return Draw(read=[photo for group in sessions[:read_sessions] for photo in group],
                val=[group[0] for group in sessions[read_sessions : read_sessions + val_photos]],
                train=[group[0] for group in sessions[read_sessions + val_photos :]])


def run_count(n: int, photos: Draw, read_folder: Path, synthetic: Path | None, args) -> dict:
    """Fine-tune the base on the first n training photos and read the set's reading photos with the candidate."""
    from vision.twostage.finetune import TwoStageFinetune, run_finetune

    if n > len(photos.train):
        raise SystemExit(f"only {len(photos.train)} photo sessions are left for training, not {n}")
    with tempfile.TemporaryDirectory(prefix="mjsnap-new-set-") as tmp:
        data = link_dataset(Path(tmp) / "data", {"train": photos.train[:n], "val": photos.val})
        job = TwoStageFinetune(data=data, base=args.base.resolve(), epochs=args.epochs,
                               classifier_minutes=args.classifier_minutes, classifier_epochs=args.classifier_epochs,
                               replay=args.replay, name=f"n{n}_seed{args.seed}", project=args.work / "runs",
                               seed=args.seed, command=f"benchmarks/new_set.py --counts {n} --seed {args.seed}")
        shutil.rmtree(job.run, ignore_errors=True)  # a count is redone whole: its photos come from this draw
        started = time.perf_counter()
        model = run_finetune(job)
        wall = time.perf_counter() - started
    return {"photos": n, "val_photos": len(photos.val), "train_minutes": round(wall / 60, 1),
            "detector": job.stages["detector"], "crops": job.stages["crops"], "classifier": job.stages["classifier"],
            "read": read_set(model, read_folder)} | ({"synthetic": read_set(model, synthetic)} if synthetic else {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, required=True, help="a two-stage model whose classifier never saw the set")
    parser.add_argument("--photos", type=Path, default=None,
                        help="a folder of labelled photos of the set (default: ../shared cmd val, unaugmented real photos)")
    parser.add_argument("--read-share", type=float, default=0.5, help="share of the photo sessions kept for reading")
    parser.add_argument("--val-photos", type=int, default=8, help="photos (sessions) for each fine-tune's own val")
    parser.add_argument("--counts", default="10,30,60", help="labelled photos per fine-tune, comma separated")
    parser.add_argument("--epochs", type=int, default=10, help="tile detector epochs (mjsnap train's default)")
    parser.add_argument("--classifier-minutes", type=float, default=DEFAULT_CLASSIFIER_MINUTES,
                        help="the classifier's wall-time ceiling (mjsnap train's default)")
    parser.add_argument("--classifier-epochs", type=int, default=30, help="(mjsnap train's default)")
    parser.add_argument("--replay", type=int, default=None,
                        help="mjsnap train --replay: synthetic photos trained on beside the N (default: mjsnap train's, "
                             "as many as the N; 0: none)")
    parser.add_argument("--synthetic", type=int, default=120,
                        help="generated photos every model also reads, to see what a fine-tune forgets (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="which photo sessions play which part")
    parser.add_argument("--work", type=Path, default=REPO / "work" / "new_set", help="run folders and progress record")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if args.photos is None:
        shared = shared_dir()
        if shared is None:
            raise SystemExit("../shared is absent: give --photos, a folder of labelled photos of the set")
        args.photos = shared / "datasets" / "cmd" / "images" / "val"
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    counts = sorted({int(c) for c in args.counts.split(",")})
    sessions = draw_sessions(args.photos, args.seed)
    photos = draw(sessions, args.read_share, args.val_photos)
    settings = {"base": str(args.base), "photos": str(args.photos), "read_share": args.read_share,
                "val_photos": args.val_photos, "epochs": args.epochs, "classifier_minutes": args.classifier_minutes,
                "classifier_epochs": args.classifier_epochs, "replay": args.replay, "synthetic": args.synthetic, "seed": args.seed}
    print(f"[new-set benchmark] {len(sessions)} photo sessions in {args.photos}: {len(photos.read)} photos to read, "
          f"{len(photos.val)} val, {len(photos.train)} to train on", flush=True)
    args.work.mkdir(parents=True, exist_ok=True)
    read_dir = args.work / f"read_seed{args.seed}"
    shutil.rmtree(read_dir, ignore_errors=True)
    link_dataset(read_dir, {"read": photos.read})
    read_folder = read_dir / "images" / "read"
    synthetic = synthetic_photos(args.work, args.synthetic) if args.synthetic else None
    record = args.work / f"new_set_seed{args.seed}.json"
    state = json.loads(record.read_text()) if record.is_file() else {}
    if state.get("settings") != settings:
        state = {"settings": settings, "runs": {}}
    if "base" not in state:
        state["base"] = read_set(args.base, read_folder)
        if synthetic:
            state["base_synthetic"] = read_set(args.base, synthetic)
        record.write_text(json.dumps(state, indent=1) + "\n")
    for n in counts:
        if str(n) in state["runs"]:
            print(f"[new-set benchmark] {n} photos: kept from the last run", flush=True)
            continue
        state["runs"][str(n)] = run_count(n, photos, read_folder, synthetic, args)
        print(f"[new-set benchmark] {n} photos: {json.dumps(state['runs'][str(n)]['read'])}", flush=True)
        record.write_text(json.dumps(state, indent=1) + "\n")
    report = {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
              "sessions": len(sessions), "photos_to_train_on": len(photos.train), **state}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "new_set.json").write_text(json.dumps(report, indent=1) + "\n")
    (args.out / "new_set.md").write_text(markdown(report))
    print(markdown(report))


def markdown(report: dict) -> str:
    s = report["settings"]
    lines = [
        "# A tile set the model never saw: tile accuracy after labelling N photos of it", "",
        f"{report['created']}, {report['machine']}. Base `{s['base']}`. Photos of the set: `{s['photos']}`, "
        f"{report['sessions']} photo sessions, seed {s['seed']}: every model reads the photos of {s['read_share']:.0%} "
        f"of the sessions ({report['base']['images']} photos) at confidence {TILE_CONF}; each fine-tune trains on one "
        f"photo of each of N other sessions (of {report['photos_to_train_on']}) and validates on {s['val_photos']} "
        f"more. Each fine-tune is `mjsnap train --base` (vision.twostage.finetune): tile detector "
        f"{s['epochs']} epochs, crop classifier {s['classifier_epochs']} epochs or {s['classifier_minutes']} min "
        "if sooner (both `mjsnap train`'s defaults), then the export"
        + ("; no synthetic photos beside the N (`--replay 0`)." if s.get("replay") == 0 else
           f"; {s['replay']} synthetic photos trained on beside the N (`--replay`)." if s.get("replay") else
           "; as many synthetic photos as the N trained on beside them (`--replay`'s default)." if "replay" in s else
           "; no synthetic photos beside the N (run before `--replay` existed).")
        , "",
        "| labelled photos | tile accuracy | tile errors (missed / misread / extra) | photos read exactly | "
        "training crops | classifier epochs | training minutes | top confusions |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def figures(read: dict) -> str:
        return (f"{read['tile_accuracy']:.4f} | {read['tile_errors']} ({read['missed']} / {read['misclassified']} / "
                f"{read['extra']})")

    def row(label: str, read: dict, crops="-", epochs="-", minutes="-") -> str:
        return (f"| {label} | {figures(read)} | {read['exact_match']:.3f} | {crops} | {epochs} | {minutes} | "
                f"{', '.join(read['top_confusions'])} |")

    lines.append(row("0 (the base)", report["base"]))
    for n, run in sorted(report["runs"].items(), key=lambda item: int(item[0])):
        lines.append(row(n, run["read"], run["crops"]["train"], run["classifier"]["epochs"], run["train_minutes"]))
    lines += ["", f"{report['base']['images']} photos, {report['base']['true_tiles']} labelled tiles read by every row. "
              "Tile accuracy is the share of labelled tiles read right. An extra box may be a real tile the labels "
              "leave out (cmd labels the hand, not the discards or face-down tiles): `benchmarks/error_anatomy.py` "
              "sorts them."]
    if "base_synthetic" in report:
        synthetic = report["base_synthetic"]
        lines += ["", f"## What the fine-tune forgets: {synthetic['images']} generated photos (`mjsnap synth` seed 2026, "
                  "drawn and art sets, every tile labelled, face-down ones too)", "",
                  "| labelled photos | tile accuracy | tile errors (missed / misread / extra) | `back` recall | top confusions |",
                  "|---|---|---|---|---|"]
        rows = [("0 (the base)", synthetic)] + [(n, run["synthetic"]) for n, run in
                                                sorted(report["runs"].items(), key=lambda item: int(item[0]))]
        for label, read in rows:
            lines.append(f"| {label} | {figures(read)} | {read['back_recall']} | {', '.join(read['top_confusions'])} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
