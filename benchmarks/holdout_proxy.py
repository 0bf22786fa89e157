"""The hold-out proxy's reader with another classifier: a copy of a two-stage model directory whose classifier/ is a
given checkpoint (one that never saw the photos' tile set), and its tile errors on whole labelled photos.

Shared by benchmarks/generator_ab.py, character_floor.py and classifier_input.py; `settings` change sections of the
copy's meta.json, e.g. {"classifier": {"imgsz": 96}} or {"characters": {"floor": 0.005}}.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path


def with_classifier(proxy: Path, classifier: Path, out: Path, settings: dict | None = None) -> Path:
    """A copy of the `proxy` model directory at `out` with `classifier` exported as its (first) classifier, at the
    classifier input meta.json gives once `settings` are applied. The proxy itself is left as it is."""
    from vision.twostage.export import export_classifier

    meta = json.loads((proxy / "meta.json").read_text())
    for section, values in (settings or {}).items():
        meta[section] = {**meta.get(section, {}), **values}
    shutil.copytree(proxy, out, ignore=lambda folder, names: ["classifier"] if Path(folder) == proxy else [])
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    export_classifier(classifier, out / "classifier", meta["classifier"]["imgsz"])
    return out


def read_photos(classifier: Path, proxy: Path, data: Path, report: Path, settings: dict | None = None) -> dict:
    """Tile errors on the labelled photos of `data` (val), read by the `proxy` model directory with `classifier` as
    its (first) classifier: its tile detector and reading steps, this classifier's readings (see `with_classifier`
    for `settings`). Kept in `report`, which is read back instead once it exists."""
    if not report.is_file():
        from vision import evaluate as ev

        with tempfile.TemporaryDirectory(prefix="mjsnap-holdout-proxy-", dir=report.parent) as tmp:
            model = with_classifier(proxy, classifier, Path(tmp) / "model", settings)
            predictor, backend = ev.detector_predictor(model)
            read = ev.evaluate(predictor, ev.labelled_images(data), 0.25, f"{proxy} + {classifier.name} ({backend})",
                               str(data), top_k=15)
        report.write_text(json.dumps({"photos": read.images, "tiles": read.true_tiles, "tile_errors": read.tile_errors,
                                      "tile_accuracy": read.tile_accuracy, "missed": read.missed,
                                      "misclassified": read.misclassified, "extra": read.extra,
                                      "top_confusions": [[f"{c.true}->{c.predicted}", c.count]
                                                         for c in read.top_confusions]}, indent=1))
    return json.loads(report.read_text())
