"""Export an mjsnap dataset folder for other tools.

- Label Studio JSON tasks: ``data.image`` is ``<url prefix><split>/<name>.jpg`` (default prefix: Label Studio's
  local-files URL), the labels as an annotation (or as predictions, to review them as pre-annotations), one
  ``rectanglelabels`` result per box in percent of ``original_width``/``original_height``; a labelling config with
  the 36 names is written beside it.
- Ultralytics YOLO zip (what CVAT imports as "Ultralytics YOLO Detection 1.0" and ultralytics trains on):
  ``data.yaml`` with ``index: name`` names, ``train.txt``/``val.txt``, ``images/<split>/``, ``labels/<split>/``.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from pathlib import Path

from mjsnap.labels import FILE_MODE, IMAGE_SUFFIX, TRAINING_SPLITS, LabelDataset, LabelError, write_atomic
from scoring.tiles import CLASS_NAMES
from vision.imageio import opened_photo

LOCAL_FILES_PREFIX = "/data/local-files/?d="


def _photos(dataset: LabelDataset, splits: tuple[str, ...]):
    for split in splits:
        folder = dataset.root / "labels" / split
        for label in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
            yield split, label.stem


def labelstudio_config() -> str:
    """A Label Studio labelling config whose label values are mjsnap's class names."""
    labels = "\n".join(f'    <Label value="{name}"/>' for name in CLASS_NAMES)
    return (f'<View>\n  <Image name="image" value="$image"/>\n  <RectangleLabels name="label" toName="image">\n'
            f"{labels}\n  </RectangleLabels>\n</View>\n")


def labelstudio_config_path(out: Path) -> Path:
    """The labelling config written beside a Label Studio export."""
    return Path(out).with_suffix(".config.xml")


def export_labelstudio_json(
    root: Path, out: Path, url_prefix: str = LOCAL_FILES_PREFIX, as_predictions: bool = False,
    splits: tuple[str, ...] = TRAINING_SPLITS,
) -> int:
    """Write the tasks to ``out`` (and ``<out>.config.xml``); returns the number of tasks."""
    dataset = LabelDataset(root)
    tasks = []
    for split, name in _photos(dataset, splits):
        with opened_photo(dataset.image_path(name, split)) as image:  # ImageReadError names it, Pillow does not
            width, height = image.size
        try:
            boxes = dataset.load(name, split)
        except LabelError as exc:  # it names the line, not the file
            raise LabelError(f"{dataset.label_path(name, split)}: {exc}", exc.code) from None
        except UnicodeDecodeError:  # e.g. a byte-order mark an editor added
            raise LabelError(f"{dataset.label_path(name, split)} is not an ASCII YOLO label file",
                             "bad_label_line") from None
        results = []
        for number, box in enumerate(boxes):
            x1, y1, x2, y2 = box.box
            results.append({
                "id": f"{name[:40]}-{number}", "type": "rectanglelabels", "from_name": "label", "to_name": "image",
                "original_width": width, "original_height": height, "image_rotation": 0,
                "value": {"x": 100 * x1 / width, "y": 100 * y1 / height, "width": 100 * (x2 - x1) / width,
                          "height": 100 * (y2 - y1) / height, "rotation": 0,
                          "rectanglelabels": [CLASS_NAMES[box.cls]]},
            })
        task = {"data": {"image": f"{url_prefix}{split}/{name}{IMAGE_SUFFIX}"}}
        task["predictions" if as_predictions else "annotations"] = [{"result": results}]
        tasks.append(task)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, json.dumps(tasks, indent=1).encode("utf-8"))
    write_atomic(labelstudio_config_path(out), labelstudio_config().encode("utf-8"))
    return len(tasks)


def export_yolo_zip(root: Path, out: Path, splits: tuple[str, ...] = TRAINING_SPLITS) -> int:
    """Write the Ultralytics YOLO zip; returns the number of photos."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")  # its own: two exports
    os.close(handle)  # to one --out at once must not write into one file
    temp = Path(name)
    temp.chmod(FILE_MODE)
    try:
        count = _write_yolo_zip(LabelDataset(root), splits, temp)
        temp.replace(out)
    except BaseException:  # a failed export leaves no half-written zip behind
        temp.unlink(missing_ok=True)
        raise
    return count


def _write_yolo_zip(dataset: LabelDataset, splits: tuple[str, ...], path: Path) -> int:
    listed: dict[str, list[str]] = {split: [] for split in splits}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for split, name in _photos(dataset, splits):
            image = f"images/{split}/{name}{IMAGE_SUFFIX}"
            archive.write(dataset.image_path(name, split), image)
            archive.write(dataset.label_path(name, split), f"labels/{split}/{name}.txt")
            listed[split].append(image)
        names = "".join(f"  {i}: {json.dumps(name)}\n" for i, name in enumerate(CLASS_NAMES))  # quoted: YAML reads N/Y as booleans
        subsets = "".join(f"{split}: {split}.txt\n" for split in splits)
        archive.writestr("data.yaml", f"path: ./\n{subsets}\nnames:\n{names}")
        for split, images in listed.items():
            archive.writestr(f"{split}.txt", "".join(f"{image}\n" for image in images))
    return sum(len(v) for v in listed.values())
