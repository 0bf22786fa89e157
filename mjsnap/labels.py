"""Save a corrected photo as a YOLO label: a dataset folder in the ultralytics layout, ready for retraining.

Layout (what ultralytics reads; the labelling page and `mjsnap train` use the same folders)::

    ROOT/data.yaml                      train/val folders and the 36 class names in classes.txt order
    ROOT/images/{train,val,review}/NAME.jpg
    ROOT/labels/{train,val,review}/NAME.txt   one line per box: class x_center y_center width height (0..1)

``review`` holds photos a person still has to finish (e.g. a tile was added to the hand but has no box in the
photo yet); data.yaml does not train on it. Every file is written to a temporary file in the same folder and
moved into place with ``os.replace``, so a crash never leaves half a label, and a name can never reach a path
outside ROOT. A save holds an flock on ROOT while it writes the photo and clears its other splits, so two sessions
saving one name at once leave one whole photo and label, not an image without its label or nothing at all;
``replace_other=False`` refuses (code ``name_taken``) to put a photo over another photo saved under the same name;
and ``last_seen`` refuses (code ``saved_meanwhile``) to replace a label saved after the caller took its boxes.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from mjsnap.locks import file_stamp, holding_folder
from scoring.tiles import CLASS_NAMES

DATA_YAML = "data.yaml"
SPLITS = ("train", "val", "review")
TRAINING_SPLITS = ("train", "val")
IMAGE_SUFFIX = ".jpg"
JPEG_QUALITY = 92
FILE_MODE = 0o644  # a dataset file's mode, as one written in place would have (mkstemp's temporary files are 0600)
SAME_PHOTO_LEVELS = 4.0  # mean grey-level difference (of 255, at 64x64) under which a saved image is the same photo
NAME_MAX_LENGTH = 100  # characters of a label name (safe_name)
_NAME_PATTERN = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.-]{{0,{NAME_MAX_LENGTH - 1}}}")


class LabelError(ValueError):
    """A label that cannot be saved or read as asked (bad name, bad box, a dataset with other class names).

    ``code`` is stable (the app shows it in the page's language, mjsnap.i18n_catalogue); the message, for the
    CLI and the logs, names the very box, line or path; ``box`` is the 1-based table row a page's box came from."""

    def __init__(self, message: str, code: str, box: int | None = None):
        super().__init__(message)
        self.code = code
        self.box = box


@dataclass(frozen=True)
class LabelBox:
    """One labelled box: a class id of ``CLASS_NAMES`` and ``[x1, y1, x2, y2]`` in pixels of the saved image."""

    cls: int
    box: tuple[float, float, float, float]

    def __post_init__(self) -> None:
        if not isinstance(self.cls, (int, np.integer)) or not 0 <= int(self.cls) < len(CLASS_NAMES):
            raise LabelError(f"class id {self.cls!r} is not one of the {len(CLASS_NAMES)} classes", "bad_class_id")
        box = tuple(float(v) for v in self.box)
        if len(box) != 4 or not all(np.isfinite(box)):
            raise LabelError(f"box {self.box!r} needs four finite numbers x1 y1 x2 y2", "bad_box_numbers")
        if box[2] <= box[0] or box[3] <= box[1]:
            raise LabelError(f"box {box} has no area (x2 must exceed x1 and y2 exceed y1)", "box_without_area")
        object.__setattr__(self, "cls", int(self.cls))
        object.__setattr__(self, "box", box)


SaveStamp = tuple[int, int]  # one save of a name: its label file's inode and modification time (a split moves it)
ANY_SAVE = object()  # save's ``last_seen`` when whatever is saved under the name may be replaced


@dataclass(frozen=True)
class SavedLabel:
    name: str
    split: str
    image: Path
    label: Path
    boxes: int
    stamp: SaveStamp


def safe_name(name: str) -> str:
    """``name`` if it is a plain file stem (letters, digits, ``_ . -``; no leading dot; at most 100); else LabelError."""
    if not isinstance(name, str) or not _NAME_PATTERN.fullmatch(name) or ".." in name:
        raise LabelError(
            f"label name {name!r} is not allowed: use letters, digits, '_', '.', '-' (no leading dot, no '..')",
            "bad_label_name",
        )
    return name


def yolo_lines(boxes: Sequence[LabelBox], width: int, height: int) -> list[str]:
    """YOLO text lines for boxes in a ``width`` x ``height`` image; boxes are clipped to the image."""
    if width <= 0 or height <= 0:
        raise LabelError(f"image size {width}x{height} has no pixels", "image_without_pixels")
    lines = []
    for item in boxes:
        x1, y1, x2, y2 = item.box
        x1, x2 = min(max(x1, 0.0), width), min(max(x2, 0.0), width)
        y1, y2 = min(max(y1, 0.0), height), min(max(y2, 0.0), height)
        if x2 <= x1 or y2 <= y1:
            raise LabelError(f"box {item.box} of class {CLASS_NAMES[item.cls]} lies outside the {width}x{height} image",
                             "box_outside_image")
        xc, yc = (x1 + x2) / 2 / width, (y1 + y2) / 2 / height
        w, h = (x2 - x1) / width, (y2 - y1) / height
        lines.append(f"{item.cls} {xc:.6f} {yc:.6f} {w:.6f} {h:.6f}")
    return lines


def parse_yolo_lines(text: str, width: int, height: int) -> list[LabelBox]:
    """The boxes of a YOLO label file, back in pixels; LabelError names the bad line."""
    boxes = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            cls = int(parts[0])
            xc, yc, w, h = (float(v) for v in parts[1:])
        except (ValueError, IndexError):
            raise LabelError(f"label line {number} {line!r} is not 'class xc yc w h'", "bad_label_line") from None
        box = ((xc - w / 2) * width, (yc - h / 2) * height, (xc + w / 2) * width, (yc + h / 2) * height)
        boxes.append(LabelBox(cls, box))
    return boxes


def data_yaml_text() -> str:
    """data.yaml for a dataset of this layout (no ``path``: ultralytics then uses the file's own folder)."""
    names = ", ".join(json.dumps(name) for name in CLASS_NAMES)
    return (
        "# mjsnap tile dataset (ultralytics layout). images/review is not trained on: it waits for a person.\n"
        "train: images/train\n"
        "val: images/val\n"
        f"nc: {len(CLASS_NAMES)}\n"
        f"names: [{names}]\n"
    )


def read_class_names(yaml_text: str) -> list[str] | None:
    """The ``names`` of a data.yaml, in the flow form written here or the block form (``  0: 1m``) ultralytics
    writes; None when neither is found."""
    lines = yaml_text.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith("names:"):
            continue
        rest = line[len("names:") :].strip()
        if rest.startswith("["):
            try:
                return [str(n) for n in json.loads(rest.replace("'", '"'))]
            except json.JSONDecodeError:
                return None
        names: dict[int, str] = {}
        for entry in lines[index + 1 :]:
            match = re.fullmatch(r"\s+(\d+)\s*:\s*['\"]?([^'\"]+?)['\"]?\s*", entry)
            item = re.fullmatch(r"\s+-\s*['\"]?([^'\"]+?)['\"]?\s*", entry)
            if match:
                names[int(match.group(1))] = match.group(2)
            elif item:
                names[len(names)] = item.group(1)
            else:
                break
        return [names[i] for i in sorted(names)] or None
    return None


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``: a reader or a crash
    finds the old file or the new one whole. ``durable``: synced to disk before the rename (off for files remade from
    a seed, where a sync per file costs more than making them again)."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, FILE_MODE)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def same_photo(saved: Path, image: Image.Image) -> bool:
    """Whether the image file ``saved`` shows ``image`` (the same size, and equal but for JPEG's loss); a file that
    cannot be read is no photo to keep."""
    try:
        with Image.open(saved) as old:
            if old.size != image.size:
                return False
            old_grey = np.asarray(old.convert("L").resize((64, 64), Image.Resampling.BILINEAR), dtype=np.float32)
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return True
    new_grey = np.asarray(image.convert("L").resize((64, 64), Image.Resampling.BILINEAR), dtype=np.float32)
    return float(np.abs(old_grey - new_grey).mean()) < SAME_PHOTO_LEVELS


def jpeg_bytes(image: np.ndarray | Image.Image) -> tuple[bytes, int, int]:
    """An RGB image as JPEG bytes (no EXIF: the pixels are already upright) and its width and height."""
    pil = image if isinstance(image, Image.Image) else Image.fromarray(np.asarray(image, dtype=np.uint8))
    pil = pil.convert("RGB")
    buffer = io.BytesIO()
    pil.save(buffer, format="JPEG", quality=JPEG_QUALITY)
    return buffer.getvalue(), pil.width, pil.height


class LabelDataset:
    """A YOLO dataset folder that corrections are saved into."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def ensure(self) -> None:
        """Create the folders and data.yaml; an existing data.yaml must list the same 36 classes in order."""
        self.check_class_names()  # first: a folder of another class list is refused with nothing made in it
        self.root.mkdir(parents=True, exist_ok=True)
        for kind in ("images", "labels"):
            for split in SPLITS:
                self._inside(self.root / kind / split).mkdir(parents=True, exist_ok=True)
        yaml_path = self._inside(self.root / DATA_YAML)
        if not yaml_path.exists():
            write_atomic(yaml_path, data_yaml_text().encode("utf-8"))

    def check_class_names(self) -> None:
        """LabelError when the folder's data.yaml lists other classes than mjsnap's 36, in order (none: nothing to
        check)."""
        yaml_path = self._inside(self.root / DATA_YAML)
        if yaml_path.exists():
            names = read_class_names(yaml_path.read_text(encoding="utf-8"))
            if names != list(CLASS_NAMES):
                raise LabelError(
                    f"{yaml_path} lists classes {names} but mjsnap labels use {list(CLASS_NAMES)}: "
                    "save corrections into another folder",
                    "other_class_names",
                )

    def image_path(self, name: str, split: str) -> Path:
        return self._inside(self.root / "images" / self._split(split) / f"{safe_name(name)}{IMAGE_SUFFIX}")

    def label_path(self, name: str, split: str) -> Path:
        return self._inside(self.root / "labels" / self._split(split) / f"{safe_name(name)}.txt")

    def save(
        self,
        name: str,
        image: np.ndarray | Image.Image,
        boxes: Sequence[LabelBox],
        split: str = "train",
        replace_other: bool = True,
        last_seen: SaveStamp | None | object = ANY_SAVE,
    ) -> SavedLabel:
        """Save ``image`` and its boxes as NAME in ``split``; the same NAME in any other split is removed, so the
        latest correction of a photo is the only one. With ``replace_other=False`` a NAME saved with another photo
        is left as it is and LabelError ``name_taken`` raised. With ``last_seen`` (`saved_stamp` when the boxes were
        taken), a NAME saved since then (by another session) is left as it is and LabelError ``saved_meanwhile``
        raised."""
        image_path, label_path = self.image_path(name, split), self.label_path(name, split)
        self.ensure()
        pil = image if isinstance(image, Image.Image) else Image.fromarray(np.asarray(image, dtype=np.uint8))
        data, width, height = jpeg_bytes(pil)
        text = "".join(line + "\n" for line in yolo_lines(boxes, width, height))
        with holding_folder(self.root):  # the checks, the writes and the clearing of other splits as one step
            if last_seen is not ANY_SAVE and self.saved_stamp(name) != last_seen:
                raise LabelError(f"{name} was saved again (by another session) after these boxes were loaded; it was "
                                 "not replaced: save once more to replace it with these boxes", "saved_meanwhile")
            if not replace_other:
                self._refuse_other_photo(name, pil)
            write_atomic(image_path, data)  # image first: a label file never exists without its image
            write_atomic(label_path, text.encode("ascii"))
            for other in SPLITS:
                if other != split:
                    self.label_path(name, other).unlink(missing_ok=True)
                    self.image_path(name, other).unlink(missing_ok=True)
            stamp = self.saved_stamp(name)
        return SavedLabel(name, split, image_path, label_path, len(boxes), stamp)

    def other_photo(self, name: str, image: Image.Image) -> str | None:
        """The split where NAME is saved with a photo other than ``image``; None when it is not saved or is this one."""
        for split in SPLITS:
            saved = self.image_path(name, split)
            if self.label_path(name, split).exists() and saved.exists() and not same_photo(saved, image):
                return split
        return None

    def _refuse_other_photo(self, name: str, image: Image.Image) -> None:
        split = self.other_photo(name, image)
        if split is not None:
            raise LabelError(
                f"{self.image_path(name, split)} is another photo saved as {name!r}; it was not replaced: give this "
                "photo another name (or save it into another dataset folder)",
                "name_taken",
            )

    def load(self, name: str, split: str) -> list[LabelBox]:
        """The saved boxes of NAME in pixels of its saved image."""
        with Image.open(self.image_path(name, split)) as image:
            width, height = image.size
        return parse_yolo_lines(self.label_path(name, split).read_text(encoding="ascii"), width, height)

    def saved_stamp(self, name: str) -> SaveStamp | None:
        """Which save of NAME the folder holds (each save writes a new label file); None when NAME is not saved."""
        for split in SPLITS:
            stamp = file_stamp(self.label_path(name, split))  # None: not saved there (or not to be read)
            if stamp is not None:
                return stamp
        return None

    def split_to_save(self, name: str, done: bool) -> str:
        """Where a correction of NAME goes: train when done, or val where `mjsnap label split` made it a validation
        photo (trained on, it would flatter every later comparison of models); review when not done."""
        if not done:
            return "review"
        return "val" if self.find(name) == "val" else "train"

    def find(self, name: str) -> str | None:
        """The split NAME is saved in, or None."""
        for split in SPLITS:
            if self.label_path(name, split).exists():
                return split
        return None

    def _split(self, split: str) -> str:
        if split not in SPLITS:
            raise LabelError(f"split {split!r} is not one of {', '.join(SPLITS)}", "bad_split")
        return split

    def _inside(self, path: Path) -> Path:
        """``path`` if it resolves inside the dataset root (symlinked folders included); else LabelError."""
        root = self.root.resolve()
        resolved = path.resolve()
        if resolved != root and not resolved.is_relative_to(root):
            raise LabelError(f"{path} resolves to {resolved}, outside the dataset folder {root}", "outside_dataset")
        return path
