"""One GPU run of the crop classifier: fresh synthetic crops on every CPU core, then four classifiers at once on one GPU.

Made for a lent GPU machine (the `device` tool: one H200, 16 cores, ~10 minutes a command, no network), where
ultralytics and pydantic travel as wheels and the project runs from its working tree. Every stage has a wall-time
budget, so the run ends inside the command's limit whatever the machine's speed.

1. Synthetic crops: each worker draws photos of its own seed with the product's generator (vision.synth: the same
   photo, JPEG quality included, as `mjsnap synth` writes for that seed and index) until --synth-seconds are spent,
   and cuts each labelled tile as `mjsnap train-two-stage crops` does (vision.twostage.crops.training_crop; every
   40th photo goes to val, cut exactly). Worker groups follow the shipped recipe's mix: photos 512-800 px, 512-1024 px
   laid out conventionally, and 1100-1600 px (tiles as many pixels as a phone photo read at 1600 px).
2. Four classifiers trained at once (vision.twostage.fastcls on the GPU, the same budget each):
   - full_n: yolo11n-cls from the shipped classifier, on the synthetic crops + the club photos' crops (cmd train);
   - full_s: yolo11s-cls from scratch, on the same crops;
   - fold_n: yolo11n-cls from mahjong-detector's backbone, on the synthetic crops only (the hold-out proxy for a
     tile set never seen: cmd's real photos);
   - fold_s: yolo11s-cls from scratch, on the synthetic crops only.
   Each reports its cmd val crop accuracy per epoch (crops named cmd_*); the last epoch is kept, never the best.
3. RESULTS/<run>.pt (the last checkpoint, FP16) and RESULTS/summary.json (synthetic crop counts, every epoch of
   every run, timings, the GPU).

What travels to the GPU machine is prepared here first (the machine has no ../shared and no mahjong-detector
package, and the copied tree is limited to 64 MiB, so the crops are a share of cmd's, as JPEG):

    .venv/bin/mjsnap train-two-stage crops --data datasets/cmd.yaml --out work/cmd_crops --per-class-limit 1200
    .venv/bin/python scripts/gpu_classifier.py prepare --crops work/cmd_crops --out .devcarry
    # there: ultralytics and pydantic as wheels on PYTHONPATH, YOLO_OFFLINE=1, then
    python3 scripts/gpu_classifier.py --results $OUT --work /tmp/gpu_run --tileart .devcarry/tileart \\
        --cmd-crops .devcarry/cmd_crops --fold-start .devcarry/mahjong_detector_yolo11n.pt
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from multiprocessing import get_context
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

VAL_EVERY = 40  # every 40th photo of a worker is cut for val
WORKER_GROUPS = ((512, 800, "any"), (512, 800, "any"), (512, 1024, "conventional"), (1100, 1600, "any"))
FIRST_SEED = 100  # the shipped recipe's seeds are 1-9; val sets are seeds 1, 3, 9 and 21; candidate 0.15.0's started at 300


def synth_worker(job: tuple) -> dict:
    """Draw photos of one seed until the deadline; write their tile crops into OUT/{train,val}/NN_name/."""
    import cv2
    import numpy as np

    from vision.synth.scene import SynthOptions, make_sample
    from vision.synth.writer import encode_jpeg, jpeg_quality
    from vision.twostage.crops import CropSettings, class_folder, training_crop

    seed, (low, high, layout), tileart, out, deadline, per_class, size = job
    cv2.setNumThreads(1)
    options = SynthOptions(imgsz_min=low, imgsz_max=high, tileart=Path(tileart) if tileart else None, layout=layout)
    sized = {} if size is None else {"size": size}
    train_settings, exact = CropSettings(**sized), CropSettings(jitter=0.0, upside_down=0.0, **sized)
    rng = np.random.default_rng(seed)
    counts = {"photos": 0, "train": 0, "val": 0, "capped": 0}
    per_class_train: Counter[int] = Counter()
    styles: Counter[str] = Counter()
    index = 0
    while time.time() < deadline:
        sample = make_sample(seed, index, options)
        photo = cv2.imdecode(np.frombuffer(encode_jpeg(sample, jpeg_quality(seed, index)), np.uint8), cv2.IMREAD_COLOR)
        rgb = photo[:, :, ::-1]
        split = "val" if index % VAL_EVERY == VAL_EVERY - 1 else "train"
        for n, tile in enumerate(sample.tiles):
            if split == "train" and per_class is not None:
                if per_class_train[tile.cls] >= per_class:
                    counts["capped"] += 1
                    continue
                per_class_train[tile.cls] += 1
            crop = training_crop(rgb, np.array(tile.box, float), train_settings if split == "train" else exact, rng)
            name = f"syn{seed}_{index:06d}_{n}.png"
            cv2.imwrite(str(Path(out) / split / class_folder(tile.cls) / name), np.ascontiguousarray(crop[:, :, ::-1]))
            counts[split] += 1
        styles[str(sample.scene.get("style", "?")).split(":")[0]] += 1  # "drawn:<scheme>" counts as drawn
        counts["photos"] += 1
        index += 1
    return {"seed": seed, "imgsz": [low, high], "layout": layout, **counts, "styles": dict(styles),
            "per_class_train": {class_folder(c): k for c, k in sorted(per_class_train.items())}}


def make_synthetic_crops(out: Path, workers: int, seconds: float, tileart: str | None, per_class: int | None = None,
                         first_seed: int = FIRST_SEED, crop_size: int | None = None) -> list[dict]:
    """`per_class`: most training crops of a class over all workers (a frequent class, such as face-down tiles, would
    otherwise outnumber the rare ones many times). Worker k draws the stream of seed first_seed + k. `crop_size`: the
    crops' side in pixels (None: vision.twostage.crops.CropSettings' default, what shipped classifiers read)."""
    from scoring.tiles import CLASS_NAMES
    from vision.twostage.crops import class_folder

    for split in ("train", "val"):
        for cls in range(len(CLASS_NAMES)):
            (out / split / class_folder(cls)).mkdir(parents=True, exist_ok=True)
    deadline = time.time() + seconds
    cap = None if per_class is None else -(-per_class // workers)
    jobs = [(first_seed + k, WORKER_GROUPS[k % len(WORKER_GROUPS)], tileart, str(out), deadline, cap, crop_size)
            for k in range(workers)]
    with get_context("fork").Pool(workers) as pool:
        return pool.map(synth_worker, jobs, chunksize=1)


def link_tree(source: Path, target: Path, repeat: int = 1) -> int:
    """Hard-link every file of source's class folders into target's (created), `repeat` times under other names
    (a crop linked twice is trained on twice an epoch); returns the count of links."""
    count = 0
    for folder in sorted(p for p in source.iterdir() if p.is_dir()):
        (target / folder.name).mkdir(parents=True, exist_ok=True)
        for path in folder.iterdir():
            for copy in range(repeat):
                name = path.name if copy == 0 else f"{path.stem}_r{copy}{path.suffix}"
                os.link(path, target / folder.name / name)
                count += 1
    return count


RUNS = {  # name: (crop set, network scale, start)
    "full_n": ("full", "n", "full_start"),
    "full_s": ("full", "s", None),
    "fold_n": ("fold", "n", "fold_start"),
    "fold_s": ("fold", "s", None),
}


def train_one(args: argparse.Namespace) -> None:
    import torch

    from vision.twostage.fastcls import train_fast_classifier

    torch.backends.cudnn.benchmark = True  # fixed crop size: let cuDNN pick its fastest kernels once
    train_fast_classifier(Path(args.crops), Path(args.run), minutes=args.minutes, max_epochs=1000, batch=args.batch,
                          lr=args.lr, pretrained=Path(args.start) if args.start else None, val_name_prefix="cmd_",
                          threads=args.threads, seed=0, augmentation="photo", scale=args.scale, device=args.device)


ART_FILES = ("fluffystuff/map.json", "fluffystuff/Export", "gleitz", "ffalt_uni_wikimedia_pd/map.json",
             "ffalt_uni_wikimedia_pd/png")  # what vision.synth.artsets reads of ../shared/tileart


def prepare(crops: Path, out: Path, keep_train: float, keep_val: float, quality: int) -> dict:
    """OUT/cmd_crops (a seeded share of a crop dataset's train and val crops, JPEG, named cmd_*), OUT/tileart (the art
    sets' files the generator reads) and OUT/mahjong_detector_yolo11n.pt (the fold start, FP16)."""
    import cv2
    import numpy as np

    from mjsnap.paths import shared_tileart
    from vision.pretrained import build_pretrained_checkpoint

    rng = np.random.default_rng(0)
    counts = {}
    for split, keep in (("train", keep_train), ("val", keep_val)):
        counts[split] = 0
        for folder in sorted(p for p in (crops / split).iterdir() if p.is_dir()):
            (out / "cmd_crops" / split / folder.name).mkdir(parents=True, exist_ok=True)
            for path in sorted(folder.iterdir()):
                if rng.random() >= keep:
                    continue
                ok, jpeg = cv2.imencode(".jpg", cv2.imread(str(path)), [cv2.IMWRITE_JPEG_QUALITY, quality])
                (out / "cmd_crops" / split / folder.name / f"cmd_{path.stem}.jpg").write_bytes(jpeg.tobytes())
                counts[split] += 1
    tileart = shared_tileart()
    if tileart is not None:
        for name in ART_FILES:
            source, target = tileart / name, out / "tileart" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target, dirs_exist_ok=True)
            else:
                shutil.copy(source, target)
    start = out / "mahjong_detector_yolo11n.pt"
    build_pretrained_checkpoint(start)
    save_half(start, start)
    return {"cmd_crops": counts, "tileart": tileart is not None}


def save_half(checkpoint: Path, target: Path) -> None:
    import torch

    state = torch.load(str(checkpoint), map_location="cpu", weights_only=False)
    state["model"] = state["model"].half()
    torch.save(state, str(target))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    one = sub.add_parser("train-one", help="(internal) one training process")
    for flag in ("--crops", "--run", "--scale", "--device"):
        one.add_argument(flag, required=True)
    one.add_argument("--start")
    one.add_argument("--minutes", type=float, required=True)
    one.add_argument("--batch", type=int, required=True)
    one.add_argument("--lr", type=float, required=True)
    one.add_argument("--threads", type=int, required=True)
    ready = sub.add_parser("prepare", help="here: what travels to the GPU machine (see the module's doc)")
    ready.add_argument("--crops", type=Path, required=True, help="a crop dataset of cmd (train-two-stage crops)")
    ready.add_argument("--out", type=Path, required=True)
    ready.add_argument("--keep-train", type=float, default=1 / 3)
    ready.add_argument("--keep-val", type=float, default=0.35)
    ready.add_argument("--quality", type=int, default=90)
    parser.add_argument("--results", type=Path, help="where the checkpoints and summary.json go")
    parser.add_argument("--work", type=Path, default=Path("/tmp/gpu_classifier"))
    parser.add_argument("--tileart", help="../shared/tileart or a copy of its art sets")
    parser.add_argument("--cmd-crops", type=Path, help="crops of cmd (train/ and val/ class folders)")
    parser.add_argument("--full-start", type=Path, default=REPO / "models" / "current" / "classifier" / "model.pt")
    parser.add_argument("--fold-start", type=Path, help="mahjong-detector's converted checkpoint (vision.pretrained)")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--synth-seconds", type=float, default=150)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED, help="worker k draws synthetic seed FIRST_SEED+k")
    parser.add_argument("--per-class", type=int, help="most synthetic training crops of one class (default: no cap)")
    parser.add_argument("--cmd-repeat", type=int, default=1, help="times each cmd train crop is in the full runs' crops")
    parser.add_argument("--train-minutes", type=float, default=4.5)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--runs", default=",".join(RUNS))
    args = parser.parse_args()
    if args.command == "train-one":
        train_one(args)
        return
    if args.command == "prepare":
        print(json.dumps(prepare(args.crops, args.out, args.keep_train, args.keep_val, args.quality)))
        return
    if args.results is None or args.cmd_crops is None:
        parser.error("--results and --cmd-crops are required")
    started = time.time()
    summary: dict = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "args": {k: str(v) for k, v in vars(args).items()}}
    results, work = args.results, args.work
    results.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(work, ignore_errors=True)

    def write_summary() -> None:
        summary["elapsed_s"] = round(time.time() - started, 1)
        (results / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")

    summary["synth"] = make_synthetic_crops(work / "fold", args.workers, args.synth_seconds, args.tileart, args.per_class,
                                            args.first_seed)
    summary["synth_s"] = round(time.time() - started, 1)
    print(f"[gpu run] synthetic crops in {summary['synth_s']} s: "
          f"{sum(w['photos'] for w in summary['synth'])} photos, {sum(w['train'] for w in summary['synth'])} train crops", flush=True)
    import torch  # only now: the synthetic crops' workers are forked, and CUDA must not be started before that

    summary["torch"] = torch.__version__
    summary["gpu"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    write_summary()
    # fold: synthetic crops only (val: synthetic + cmd val); full: the same plus cmd train
    summary["cmd_val_crops"] = link_tree(args.cmd_crops / "val", work / "fold" / "val")
    link_tree(work / "fold" / "train", work / "full" / "train")
    summary["cmd_train_crops"] = link_tree(args.cmd_crops / "train", work / "full" / "train", args.cmd_repeat)
    (work / "full" / "val").symlink_to(work / "fold" / "val")
    starts = {"full_start": args.full_start, "fold_start": args.fold_start}
    names = [n for n in args.runs.split(",") if n]
    threads = max(1, (args.workers or 4) // max(len(names), 1))
    processes = {}
    for name in names:
        crop_set, scale, start = RUNS[name]
        command = [sys.executable, __file__, "train-one", "--crops", str(work / crop_set), "--run", str(work / "runs" / name),
                   "--scale", scale, "--device", args.device, "--minutes", str(args.train_minutes), "--batch", str(args.batch),
                   "--lr", str(args.lr), "--threads", str(threads)]
        if start is not None:
            command += ["--start", str(starts[start])]
        log = open(work / f"{name}.log", "w")
        processes[name] = (subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=REPO), log)
    summary["runs"] = {}
    for name, (process, log) in processes.items():
        process.wait()
        log.close()
        run = work / "runs" / name
        progress = run / "progress.jsonl"
        epochs = [json.loads(line) for line in progress.read_text().splitlines()] if progress.is_file() else []
        entry = {"returncode": process.returncode, "epochs": epochs,
                 "log_tail": (work / f"{name}.log").read_text()[-3000:]}
        last = run / "weights" / "last.pt"
        if last.is_file():
            save_half(last, results / f"{name}.pt")
        summary["runs"][name] = entry
        print(f"[gpu run] {name}: rc {process.returncode}, {len(epochs)} epochs, last {epochs[-1] if epochs else None}", flush=True)
        write_summary()
    write_summary()


if __name__ == "__main__":
    main()
