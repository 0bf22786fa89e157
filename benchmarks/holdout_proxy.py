"""The hold-out proxy's reader with another classifier: a copy of a two-stage model directory whose classifier/ is a
given checkpoint (one that never saw the photos' tile set), and its tile errors on whole labelled photos.

Shared by benchmarks/generator_ab.py, character_floor.py and classifier_input.py; `settings` change sections of the
copy's meta.json, e.g. {"classifier": {"imgsz": 96}} or {"characters": {"floor": 0.005}}; `others` are more
checkpoints read beside it as the copy's classifier_2/, classifier_3/, ... (meta classifier.ensemble).

Run as a script, it makes a candidate that changes reading settings, or its tile detector
(benchmarks/results/candidate_*/recipe.sh):

    .venv/bin/python benchmarks/holdout_proxy.py --out work/exp31/model_0.18.6 \
        --settings '{"characters": {"flower_doubt": 0.1}}' [--base models/current]
    .venv/bin/python benchmarks/holdout_proxy.py --out work/s44/exp/model_0.24.0_f32 \
        --detector RUN/weights/last.pt --version 0.24.0-f32 [--base models/current]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path


def derived_model(base: Path, out: Path, settings: dict | None = None, classifiers: Mapping[str, Path] | None = None,
                  drop: Sequence[str] = (), detector: Path | None = None, version: str | None = None) -> Path:
    """A copy of the model directory `base` at `out` with sections of its meta.json changed by `settings`, each
    folder named in `classifiers` (classifier, classifier_2, ...) holding that checkpoint exported at the classifier
    input meta.json gives once `settings` are applied, detector/ holding the `detector` checkpoint exported at the
    detector's input, the folders in `drop` left out, and meta version `version` when given. `base` is left as it is.
    A candidate is made this way from the shipped model (benchmarks/results/candidate_*/recipe.sh)."""
    from vision.twostage.backend import openvino_precision
    from vision.twostage.export import export_classifier, export_detector

    classifiers = dict(classifiers or {})
    meta = json.loads((base / "meta.json").read_text())
    for section, values in (settings or {}).items():
        meta[section] = {**meta.get(section, {}), **values}
    replaced = {"classifier": bool(classifiers), "detector": detector is not None}
    for stage in (stage for stage, new in replaced.items() if new and openvino_precision(meta, stage) == "int8"):
        # a new checkpoint has no INT8 copy (vision.twostage.quantize): that stage reads in f32
        meta[stage]["openvino_precision"] = "f32"
    if replaced["detector"] and "detector" in meta.get("quantized", {}).get("samples", {}):
        meta.pop("quantized")  # it told of the base's INT8 detector; quantize writes the new one's
    if version is not None:
        meta["version"] = version
    left_out = set(classifiers) | set(drop) | ({"detector"} if detector is not None else set())
    shutil.copytree(base, out, ignore=lambda folder, names: left_out & set(names) if Path(folder) == base else set())
    if detector is not None:
        meta["detector"]["files"] = export_detector(detector, out / "detector", meta["detector"]["imgsz"])
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    for name, checkpoint in classifiers.items():
        export_classifier(checkpoint, out / name, meta["classifier"]["imgsz"])
    return out


def with_classifier(proxy: Path, classifier: Path, out: Path, settings: dict | None = None,
                    others: Sequence[Path] = ()) -> Path:
    """A copy of the `proxy` model directory at `out` with `classifier` exported as its (first) classifier, and
    `others` as classifier_2/, classifier_3/, ... that meta classifier.ensemble names (in place of the proxy's own
    ensemble, if it has one), at the classifier input meta.json gives once `settings` are applied. The proxy itself
    is left as it is."""
    from vision.twostage.backend import ensemble_folders

    settings = dict(settings or {})
    ensemble = [f"classifier_{n}" for n in range(2, len(others) + 2)]
    if others:
        settings["classifier"] = {**settings.get("classifier", {}), "ensemble": ensemble}
    own_ensemble = [folder.name for folder in ensemble_folders(proxy)] if others else []
    return derived_model(proxy, out, settings, dict(zip(["classifier", *ensemble], [classifier, *others])), own_ensemble)


def read_photos(classifier: Path, proxy: Path, data: Path, report: Path, settings: dict | None = None,
                others: Sequence[Path] = ()) -> dict:
    """Tile errors on the labelled photos of `data` (val), read by the `proxy` model directory with `classifier` as
    its (first) classifier, and `others` beside it: its tile detector and reading steps, these classifiers' readings
    (see `with_classifier` for `settings`). Kept in `report`, which is read back instead once it exists."""
    if not report.is_file():
        from vision import evaluate as ev

        with tempfile.TemporaryDirectory(prefix="mjsnap-holdout-proxy-", dir=report.parent) as tmp:
            model = with_classifier(proxy, classifier, Path(tmp) / "model", settings, others)
            predictor, backend = ev.detector_predictor(model)
            read = ev.evaluate(predictor, ev.labelled_images(data), 0.25, f"{proxy} + {classifier.name} ({backend})",
                               str(data), top_k=15)
        report.write_text(json.dumps({"photos": read.images, "tiles": read.true_tiles, "tile_errors": read.tile_errors,
                                      "tile_accuracy": read.tile_accuracy, "missed": read.missed,
                                      "misclassified": read.misclassified, "extra": read.extra,
                                      "top_confusions": [[f"{c.true}->{c.predicted}", c.count]
                                                         for c in read.top_confusions]}, indent=1))
    return json.loads(report.read_text())


def main() -> None:
    repo = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(repo))  # run as a script, benchmarks/ comes first and its scoring.py is not the package
    parser = argparse.ArgumentParser(description="A candidate model directory: a copy of --base with sections of its "
                                                 "meta.json changed by --settings, or with the tile detector of "
                                                 "--detector (an --out already there is replaced).")
    parser.add_argument("--base", type=Path, default=repo / "models" / "current")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--settings", type=json.loads, default={}, help='e.g. \'{"characters": {"gate": 1.0}}\'')
    parser.add_argument("--detector", type=Path, help="a tile detector checkpoint (a run's weights/last.pt)")
    parser.add_argument("--version", help="the copy's meta version (default: the base's)")
    args = parser.parse_args()
    if not (args.base / "meta.json").is_file():
        parser.error(f"--base {args.base} is not a model directory (no meta.json)")
    if args.detector is not None and not args.detector.is_file():
        parser.error(f"--detector {args.detector} does not exist")
    if args.out.exists():
        if not (args.out / "meta.json").is_file():
            parser.error(f"--out {args.out} is there and is not a model directory: not replaced")
        shutil.rmtree(args.out)
    derived_model(args.base, args.out, args.settings, detector=args.detector, version=args.version)
    print(f"{args.out}: {args.base} with {json.dumps(args.settings)}"
          + ("" if args.detector is None else f" and the tile detector of {args.detector}"))


if __name__ == "__main__":
    main()
