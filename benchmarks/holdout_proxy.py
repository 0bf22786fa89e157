"""The hold-out proxy's reader with another classifier: a copy of a two-stage model directory whose classifier/ is a
given checkpoint (one that never saw the photos' tile set), and its tile errors on whole labelled photos.

Shared by benchmarks/generator_ab.py, character_floor.py and classifier_input.py; `settings` change sections of the
copy's meta.json, e.g. {"classifier": {"imgsz": 96}} or {"characters": {"floor": 0.005}}; `others` are more
checkpoints read beside it as the copy's classifier_2/, classifier_3/, ... (meta classifier.ensemble).

Run as a script, it makes a candidate that changes reading settings only (benchmarks/results/candidate_*/recipe.sh):

    .venv/bin/python benchmarks/holdout_proxy.py --out work/exp31/model_0.18.6 \
        --settings '{"characters": {"flower_doubt": 0.1}}' [--base models/current]
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
                  drop: Sequence[str] = ()) -> Path:
    """A copy of the model directory `base` at `out` with sections of its meta.json changed by `settings`, each
    folder named in `classifiers` (classifier, classifier_2, ...) holding that checkpoint exported at the classifier
    input meta.json gives once `settings` are applied, and the folders in `drop` left out. `base` is left as it is.
    A candidate is made this way from the shipped model (benchmarks/results/candidate_*/recipe.sh)."""
    from vision.twostage.backend import openvino_precision
    from vision.twostage.export import export_classifier

    classifiers = dict(classifiers or {})
    meta = json.loads((base / "meta.json").read_text())
    for section, values in (settings or {}).items():
        meta[section] = {**meta.get(section, {}), **values}
    if classifiers and openvino_precision(meta, "classifier") == "int8":
        # a new checkpoint has no INT8 copy (vision.twostage.quantize): its classifiers read in f32
        meta["classifier"]["openvino_precision"] = "f32"
    left_out = set(classifiers) | set(drop)
    shutil.copytree(base, out, ignore=lambda folder, names: left_out & set(names) if Path(folder) == base else set())
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
                                                 "meta.json changed by --settings (an --out already there is replaced).")
    parser.add_argument("--base", type=Path, default=repo / "models" / "current")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--settings", type=json.loads, required=True, help='e.g. \'{"characters": {"gate": 1.0}}\'')
    args = parser.parse_args()
    if not (args.base / "meta.json").is_file():
        parser.error(f"--base {args.base} is not a model directory (no meta.json)")
    if args.out.exists():
        if not (args.out / "meta.json").is_file():
            parser.error(f"--out {args.out} is there and is not a model directory: not replaced")
        shutil.rmtree(args.out)
    derived_model(args.base, args.out, args.settings)
    print(f"{args.out}: {args.base} with {json.dumps(args.settings)}")


if __name__ == "__main__":
    main()
