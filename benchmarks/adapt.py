"""A tile set the model has never seen, and unlabelled photos of it: how much does `mjsnap adapt` teach?

`mjsnap adapt PHOTOS --base DIR` (vision.twostage.adapt) fine-tunes the crop classifier on the tiles the base reads
surely. This benchmark runs that same code from a BASE whose classifier never saw the set (the hold-out proxy's, as
benchmarks/new_set.py uses) and reads other photos of the set with the base and the candidates, same run:

- `adapt`: the photos of the archive sessions, unlabelled, given to `mjsnap adapt` (defaults);
- `replay only` (the control): the same fine-tune on the same synthetic replay photos without the sure tiles, so
  the gain of the extra training alone is not counted as the sure tiles' (a fold classifier trained briefly gains
  from any further training);
- with --rounds 2, `adapt, round 2`: the round-1 candidate adapts again on the same photos.

The photos of the set (--photos, one labelled folder; default cmd val) are grouped by photo session and shuffled by
--seed as benchmarks/new_set.py does, so its reading half is the same photos as new_set's for the same seed: the
first --read-share of the sessions are read, every photo of the other sessions is the archive. The archive's labels
are only used to say how right the sure tiles were (precision of the pseudo-labels). Runs are kept in
WORK/adapt_seedS.json, so an interrupted benchmark continues.

    .venv/bin/python benchmarks/adapt.py --base work/model_cpu_fold_n [--photos ../shared/datasets/cmd/images/val]
        [--seeds 0,1] [--rounds 2] [--read-share 0.5] [--classifier-epochs 30] [--work work/adapt]
        [--out benchmarks/results/adapt]

Writes OUT/adapt.json and OUT/adapt.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from new_set import draw_sessions, link_dataset, read_set  # noqa: E402

from mjsnap.paths import shared_dir  # noqa: E402
from vision.evaluate import box_iou, greedy_match, label_path_for  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "adapt"
ARMS = ("adapt", "replay_only", "adapt_round2")


def read_labels(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(class ids, normalised xyxy boxes) of a YOLO label file."""
    if not path.is_file() or not path.stat().st_size:
        return np.zeros(0, np.int64), np.zeros((0, 4))
    rows = np.loadtxt(path, ndmin=2)
    cx, cy, w, h = rows[:, 1], rows[:, 2], rows[:, 3], rows[:, 4]
    return rows[:, 0].astype(np.int64), np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)


def pseudo_precision(pseudo: Path, originals: dict[str, Path]) -> dict:
    """How many sure tiles sit on a labelled tile (IoU >= 0.5) of the same class, and how many on one of another."""
    right = wrong = unmatched = 0
    for label in sorted(pseudo.glob("labels/*/*.txt")):
        truth_cls, truth_box = read_labels(label_path_for(originals[label.stem]))
        cls, box = read_labels(label)
        pairs = greedy_match(box_iou(box, truth_box), 0.5) if len(truth_box) and len(box) else []
        for i, j in pairs:
            right += int(cls[i] == truth_cls[j])
            wrong += int(cls[i] != truth_cls[j])
        unmatched += len(cls) - len(pairs)
    matched = right + wrong
    return {"sure_tiles": right + wrong + unmatched, "on_a_labelled_tile": matched, "right": right, "wrong": wrong,
            "precision": round(right / matched, 4) if matched else None}


def control_data(pseudo: Path, out: Path) -> Path:
    """The adapt run's dataset with its training labels emptied (the fine-tune then trains on replay alone)."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(pseudo, out, symlinks=True)
    for label in (out / "labels" / "train").iterdir():
        label.write_text("")
    return out / "data.yaml"


def run_seed(seed: int, args: argparse.Namespace, state: dict, save) -> None:
    from vision.twostage.adapt import Adaptation, run_adaptation
    from vision.twostage.finetune import TwoStageFinetune, run_finetune

    sessions = draw_sessions(args.photos, seed)
    split = round(len(sessions) * args.read_share)
    read, archive = [p for g in sessions[:split] for p in g], [p for g in sessions[split:] for p in g]
    work = args.work / f"seed{seed}"
    read_dir = work / "read"
    shutil.rmtree(read_dir, ignore_errors=True)
    link_dataset(read_dir, {"read": read})
    read_folder = read_dir / "images" / "read"
    runs = state.setdefault(str(seed), {"read_photos": len(read), "archive_photos": len(archive), "arms": {}})
    if "base" not in runs:
        runs["base"] = read_set(args.base, read_folder)
        save()
    originals = {f"{n:06d}_{p.stem}": p for n, p in enumerate(archive, 1)}

    def adapt_from(base: Path, name: str) -> dict:
        job = Adaptation(photos=archive, base=base, classifier_epochs=args.classifier_epochs, replay=args.replay,
                         crops_per_class=args.crops_per_class, replay_soft=args.replay_soft, name=name,
                         project=work / "runs", seed=seed, command=f"benchmarks/adapt.py --seeds {seed}")
        shutil.rmtree(job.run, ignore_errors=True)
        started = time.perf_counter()
        model = run_adaptation(job)
        tune = json.loads((job.run / "finetune.json").read_text())["stages"]
        return {"model": str(model), "minutes": round((time.perf_counter() - started) / 60, 1),
                "pseudo": {k: v for k, v in job.pseudo.items() if k != "unreadable"},
                "pseudo_precision": pseudo_precision(job.run / "pseudo", originals),
                "replay": tune["replay"]["photos"] if "replay" in tune else 0,
                "crops": tune["crops"], "classifier": tune["classifier"], "read": read_set(model, read_folder)}

    arms = runs["arms"]
    if "adapt" not in arms:
        arms["adapt"] = adapt_from(args.base, "adapt")
        save()
    if "replay_only" not in arms:
        run = work / "runs" / "replay_only"
        shutil.rmtree(run, ignore_errors=True)
        data = control_data(work / "runs" / "adapt" / "pseudo", work / "control_data")
        job = TwoStageFinetune(data=data, base=args.base.resolve(), tune_detector=False,
                               classifier_epochs=args.classifier_epochs, replay=arms["adapt"]["replay"],
                               crops_per_class=args.crops_per_class, replay_soft=args.replay_soft,
                               name="replay_only", project=work / "runs", seed=seed, command="benchmarks/adapt.py")
        started = time.perf_counter()
        model = run_finetune(job)
        arms["replay_only"] = {"model": str(model), "minutes": round((time.perf_counter() - started) / 60, 1),
                               "replay": job.replay, "crops": job.stages["crops"],
                               "classifier": job.stages["classifier"], "read": read_set(model, read_folder)}
        save()
    if args.rounds >= 2 and "adapt_round2" not in arms:
        arms["adapt_round2"] = adapt_from(Path(arms["adapt"]["model"]), "adapt_round2")
        save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="a two-stage model whose classifier never saw the set")
    parser.add_argument("--photos", type=Path, default=None, help="labelled photos of one set (default cmd val)")
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--rounds", type=int, default=1, choices=(1, 2))
    parser.add_argument("--read-share", type=float, default=0.5)
    parser.add_argument("--classifier-epochs", type=int, default=30)
    parser.add_argument("--crops-per-class", type=int, default=None, help="default: mjsnap adapt's")
    parser.add_argument("--replay-labels", dest="replay_soft", action="store_false",
                        help="replay crops learn their labels, not the base's readings of them")
    parser.add_argument("--replay", type=int, default=None, help="replay photos (default: mjsnap adapt's)")
    parser.add_argument("--work", type=Path, default=REPO / "work" / "adapt")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if args.photos is None:
        shared = shared_dir()
        if shared is None:
            raise SystemExit("../shared is absent: give --photos (a labelled folder of one tile set)")
        args.photos = shared / "datasets" / "cmd" / "images" / "val"
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.crops_per_class is None:
        from vision.twostage.adapt import CROPS_PER_CLASS

        args.crops_per_class = CROPS_PER_CLASS
    settings = {"base": str(args.base), "photos": str(args.photos), "read_share": args.read_share,
                "classifier_epochs": args.classifier_epochs, "replay": args.replay,
                "crops_per_class": args.crops_per_class, "replay_soft": args.replay_soft}
    record = args.work / "adapt.json"
    args.work.mkdir(parents=True, exist_ok=True)
    state = json.loads(record.read_text()) if record.is_file() else {}
    if state.get("settings") != settings:
        state = {"settings": settings, "seeds": {}}

    def save() -> None:
        record.write_text(json.dumps(state, indent=1) + "\n")

    for seed in seeds:
        run_seed(seed, args, state["seeds"], save)
        print(f"[adapt benchmark] seed {seed}: {json.dumps({k: v['read']['tile_errors'] for k, v in state['seeds'][str(seed)]['arms'].items()})}",
              flush=True)
    report = {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores", **state}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "adapt.json").write_text(json.dumps(report, indent=1) + "\n")
    (args.out / "adapt.md").write_text(markdown(report))
    print(markdown(report))


def markdown(report: dict) -> str:
    s = report["settings"]
    lines = [
        "# Adapting to a tile set from unlabelled photos (`mjsnap adapt`)", "",
        f"{report['created']}, {report['machine']}; `benchmarks/adapt.py`. Base `{s['base']}` (its classifier never "
        f"saw the set); photos `{s['photos']}` grouped by session: the first {s['read_share']:.0%} of the sessions "
        "(shuffled by the seed, as benchmarks/new_set.py draws them) are read by every model, every photo of the "
        "others is the unlabelled archive given to `mjsnap adapt` (defaults: class probability >= 0.8, detector "
        f"confidence >= 0.5; classifier at most {s['classifier_epochs']} epochs). `replay only` is the same fine-tune "
        "on the same synthetic replay photos without the sure tiles.", "",
        "| seed | model | tiles read right | tile errors (missed / misread / extra) | photos without an error | "
        "sure tiles (right / wrong / on no labelled tile) | classifier epochs | minutes | top confusions |",
        "|---|---|---:|---:|---:|---|---:|---:|---|",
    ]
    for seed, runs in report["seeds"].items():
        rows = [("base", runs["base"], None)] + [(arm, runs["arms"][arm]["read"], runs["arms"][arm])
                                                for arm in ARMS if arm in runs["arms"]]
        for arm, read, run in rows:
            precision = run.get("pseudo_precision") if run else None
            sure = (f"{precision['sure_tiles']} ({precision['right']} / {precision['wrong']} / "
                    f"{precision['sure_tiles'] - precision['on_a_labelled_tile']})") if precision else "-"
            lines.append(
                f"| {seed} | {arm.replace('_', ' ')} | {read['tile_accuracy']:.2%} | {read['tile_errors']} "
                f"({read['missed']} / {read['misclassified']} / {read['extra']}) | {read['exact_match']:.1%} | {sure} | "
                f"{run['classifier']['epochs'] if run else '-'} | {run['minutes'] if run else '-'} | "
                f"{', '.join(read['top_confusions'][:3])} |")
    photos = ", ".join(f"seed {seed}: {runs['read_photos']} read, {runs['archive_photos']} in the archive"
                       for seed, runs in report["seeds"].items())
    lines += ["", f"Photos: {photos}. A sure tile on no labelled tile is mostly a tile the labels leave out (cmd labels no face-down tile)."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
