"""What a larger crop-classifier input costs: the classifier network alone at each input size, and whole photos read
by readers whose classifiers were trained at each size, photo by photo in turn, in one run.

A reader is a two-stage model directory, optionally with its classifier/ replaced by a checkpoint read at a given
input (--reader NAME=MODEL_DIR or NAME=MODEL_DIR:CHECKPOINT@IMGSZ). A classifier must be trained at the size it
reads: weights trained at 64 px and read at 96 are unsure of every tile, and the reading steps that an unsure tile
calls for (extra looks, the text recognizer, the second classifier) would be timed instead of the input. Each photo
is read by every reader one after the other, so a change in the machine's speed falls on all alike.

    .venv/bin/python benchmarks/classifier_input.py --sizes 64,96 \\
        --reader px64=work/model_cpu_fold_n:work/crop_size_96/100_today.pt@64 \\
        --reader px96=work/model_cpu_fold_n:work/crop_size_96/100_px96.pt@96 [--data datasets/cmd.yaml] [--limit 80]
        [--out classifier_input]

Writes benchmarks/results/OUT.json and OUT.md (OUT may name a folder under it: candidate_0.19.0/latency).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.holdout_proxy import with_classifier  # noqa: E402

NETWORK_BATCH = 16  # the classifier's batch (meta classifier.batch); each crop is read both ways up, 2 batches


@dataclass(frozen=True)
class Reader:
    name: str
    model: Path
    classifier: Path | None = None
    imgsz: int | None = None

    @classmethod
    def parse(cls, text: str) -> Reader:
        name, sep, rest = text.partition("=")
        model, colon, swap = rest.partition(":")
        if not (sep and name and model):
            raise ValueError(f"--reader {text!r}: expected NAME=MODEL_DIR or NAME=MODEL_DIR:CHECKPOINT@IMGSZ")
        if not colon:
            return cls(name, Path(model))
        checkpoint, at, size = swap.rpartition("@")
        if not (at and checkpoint and size.isdigit() and int(size) % 32 == 0):
            raise ValueError(f"--reader {text!r}: the classifier is CHECKPOINT@IMGSZ, IMGSZ a multiple of 32")
        return cls(name, Path(model), Path(checkpoint), int(size))

    def build(self, out: Path) -> Path:
        """The model directory to read with: the given one, or a copy with classifier/ replaced."""
        if self.classifier is None:
            return self.model
        return with_classifier(self.model, self.classifier, out, {"classifier": {"imgsz": self.imgsz}})


def network_ms(model: Path, sizes: list[int], repeats: int) -> dict[str, dict[str, float]]:
    """The OpenVINO classifier network of `model` alone, a batch of NETWORK_BATCH crops, at each input size."""
    import openvino as ov

    meta = json.loads((model / "meta.json").read_text())
    xml = next((model / "classifier" / meta["classifier"]["files"]["openvino"]).glob("*.xml"))
    core = ov.Core()
    timings = {}
    for size in sizes:
        network = core.read_model(str(xml))
        network.reshape({network.inputs[0]: ov.PartialShape([NETWORK_BATCH, 3, size, size])})
        compiled = core.compile_model(network, "CPU", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": "f32"})
        request = compiled.create_infer_request()
        batch = np.random.default_rng(0).random((NETWORK_BATCH, 3, size, size), dtype=np.float32)
        for _ in range(5):
            request.infer({0: batch})
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            request.infer({0: batch})
            times.append(1000 * (time.perf_counter() - start))
        timings[str(size)] = summary(times)
    return timings


def timed_classifiers(detector) -> list[float]:
    """Wrap the detector's classifier calls; the returned list gathers their ms, to be summed per photo."""
    stages, spent = detector.stages, []
    classify = stages._classify_crops

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return classify(*args, **kwargs)
        finally:
            spent.append(1000 * (time.perf_counter() - start))

    stages._classify_crops = timed
    return spent


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median": round(statistics.median(ordered), 2), "mean": round(statistics.fmean(ordered), 2),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 2)}


def markdown(result: dict) -> str:
    lines = [f"# What the crop classifiers cost ({result['date']})", "",
             f"`benchmarks/classifier_input.py`, {result['machine']}, load average {result['load_before']} before, "
             f"{result['load_after']} after.", "",
             f"The classifier network of `{result['network_model']}` alone (OpenVINO, f32), a batch of "
             f"{NETWORK_BATCH} crops ({result['repeats']} runs):", "",
             "| input | median ms | mean ms | p90 ms |", "|---|---:|---:|---:|"]
    lines += [f"| {size} px | {t['median']} | {t['mean']} | {t['p90']} |" for size, t in result["network"].items()]
    lines += ["", f"Whole photos: {result['photos']} photos of `{result['data']}`, each read by every reader in turn "
              "(detect(), the photo already decoded):", "",
              "| reader | model | classifier | median ms | mean ms | p90 ms | of which classifier networks, mean ms |",
              "|---|---|---|---:|---:|---:|---:|"]
    for name, reader in result["readers"].items():
        t = reader["ms"]
        lines.append(f"| {name} | `{reader['model']}` | {reader['classifier'] or 'its own'} | {t['median']} | "
                     f"{t['mean']} | {t['p90']} | {reader['classifier_networks_ms']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reader", action="append", required=True, type=Reader.parse,
                        help="NAME=MODEL_DIR or NAME=MODEL_DIR:CHECKPOINT@IMGSZ, repeated")
    parser.add_argument("--sizes", default="64,96", help="input sizes the network alone is timed at")
    parser.add_argument("--network-model", type=Path, default=REPO / "models" / "current")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--data", type=Path, default=REPO / "datasets" / "cmd.yaml")
    parser.add_argument("--limit", type=int, default=80, help="photos read (after 3 to warm up)")
    parser.add_argument("--out", default="classifier_input",
                        help="results file stem under benchmarks/results/ (a folder under it may lead it)")
    args = parser.parse_args()
    json_path, markdown_path = results_paths(args.out)
    for reader in args.reader:
        for path in (reader.model / "meta.json", reader.classifier):
            if path is not None and not path.is_file():
                raise SystemExit(f"--reader {reader.name}: {path} does not exist")
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    from vision.detector import TileDetector
    from vision.evaluate import labelled_images
    from vision.imageio import read_image

    photos = [read_image(item.path) for item in labelled_images(args.data)[: args.limit + 3]]
    if len(photos) < 4:
        raise SystemExit(f"{args.data}: too few val photos to time ({len(photos)})")
    load_before = [round(x, 2) for x in os.getloadavg()]
    network = network_ms(args.network_model, [int(s) for s in args.sizes.split(",")], args.repeats)
    with tempfile.TemporaryDirectory(prefix="mjsnap-classifier-input-") as tmp:
        detectors = {r.name: TileDetector(r.build(Path(tmp) / r.name)) for r in args.reader}
        times: dict[str, list[float]] = {name: [] for name in detectors}
        spent = {name: timed_classifiers(detector) for name, detector in detectors.items()}
        networks: dict[str, list[float]] = {name: [] for name in detectors}
        for n, photo in enumerate(photos):
            for name, detector in detectors.items():
                spent[name].clear()
                start = time.perf_counter()
                detector.detect(photo)
                if n >= 3:
                    times[name].append(1000 * (time.perf_counter() - start))
                    networks[name].append(sum(spent[name]))
    rel = lambda path: os.path.relpath(path, REPO)  # noqa: E731
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "network_model": rel(args.network_model),
              "repeats": args.repeats, "network": network, "data": rel(args.data), "photos": len(photos) - 3,
              "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()],
              "readers": {r.name: {"model": rel(r.model),
                                   "classifier": f"`{rel(r.classifier)}` at {r.imgsz} px" if r.classifier else None,
                                   "ms": summary(times[r.name]),
                                   "classifier_networks_ms": round(statistics.fmean(networks[r.name]), 2)}
                          for r in args.reader}}
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(result, indent=1))
    markdown_path.write_text(markdown(result))
    print(markdown(result))


def results_paths(stem: str) -> tuple[Path, Path]:
    """STEM.json and STEM.md under benchmarks/results/; a stem that leaves that folder is refused before the run."""
    folder = (REPO / "benchmarks" / "results").resolve()
    base = (folder / stem).resolve()
    if not stem or not base.is_relative_to(folder) or base == folder:
        raise SystemExit(f"--out {stem!r}: a file stem under benchmarks/results/ is expected")
    return base.with_name(base.name + ".json"), base.with_name(base.name + ".md")


if __name__ == "__main__":
    main()
