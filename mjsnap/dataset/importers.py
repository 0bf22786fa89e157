"""Import labels made in other tools into an mjsnap dataset folder (mjsnap.labels.LabelDataset).

Formats (their documented export structures):

- ``labelstudio-json``: Label Studio "JSON" (a list of tasks: ``data`` holds the image URL, ``annotations[].result[]``
  holds ``rectanglelabels`` with ``value.x/y/width/height`` in percent of ``original_width``/``original_height``)
  and "JSON-MIN" (``label`` lists the same values). Images are found by file name in ``--images``.
- ``labelstudio-yolo``: Label Studio "YOLO" export: ``classes.txt`` (and ``notes.json``), ``images/``, ``labels/``.
- ``cvat-yolo``: CVAT "Ultralytics YOLO Detection 1.0": ``data.yaml`` (``names`` as ``index: name``), ``train.txt``,
  ``images/<subset>/``, ``labels/<subset>/``.
- ``roboflow-yolo``: Roboflow YOLOv5/v8/v11 export: ``data.yaml`` (``names`` sorted alphabetically) and
  ``train|valid|test/{images,labels}/``.

Folders or .zip files. Classes are mapped by NAME (mjsnap.dataset.classes), never by index. A photo with a box of
an unknown class keeps its known boxes but goes to the ``review`` split (training on it would teach the model that
the unknown tile is background), and the report lists the unknown names with their counts.
"""

from __future__ import annotations

import re
import tempfile
import urllib.parse
import zipfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from mjsnap import jsontext
from mjsnap.dataset.classes import class_id
from mjsnap.labels import NAME_MAX_LENGTH, LabelBox, LabelDataset, LabelError, read_class_names
from vision.imageio import PHOTO_SUFFIXES, ImageReadError, opened_photo, upright

FORMATS = ("labelstudio-json", "labelstudio-yolo", "cvat-yolo", "roboflow-yolo")
SPLIT_NAMES = {"train": "train", "training": "train", "valid": "val", "val": "val", "validation": "val",
               "test": "val", "default": "train"}
_LABEL_STUDIO_UPLOAD = re.compile(r"^[0-9a-f]{8}-(.+)$")  # uploads are stored as '<8 hex>-<original name>'


class ImportFormatError(ValueError):
    """The source is not an export of the given (or any known) format."""


@dataclass(frozen=True)
class SourceBox:
    label: str
    box: tuple[float, float, float, float]  # x1 y1 x2 y2 as fractions of the upright image's width and height


@dataclass
class SourcePhoto:
    source: str  # the name or URL the tool used, for messages
    image: Path | None  # None when the image file was not found
    boxes: list[SourceBox]
    split: str  # "train" or "val"
    size_hint: tuple[int, int] | None = None  # width, height the tool saw (Label Studio's original_width/height)


@dataclass
class ImportReport:
    format: str
    photos: int = 0
    boxes: int = 0
    splits: Counter = field(default_factory=Counter)
    unknown_classes: Counter = field(default_factory=Counter)
    review: list[str] = field(default_factory=list)  # saved to review because of unknown classes
    missing_images: list[str] = field(default_factory=list)
    # images --images holds several of by that file name, the task's URL not saying which: not imported
    ambiguous_images: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # boxes or photos that could not be used, with the reason
    renamed: dict[str, str] = field(default_factory=dict)  # source -> dataset name when they differ
    replaced: list[str] = field(default_factory=list)  # names the dataset had with this photo (old label replaced)

    def summary(self) -> str:
        lines = [f"{self.format}: {self.photos} photos, {self.boxes} boxes imported ({dict(self.splits)})"]
        if self.unknown_classes:
            names = ", ".join(f"{n!r} x{c}" for n, c in self.unknown_classes.most_common())
            lines.append(f"unknown class names (not imported; their photos went to review): {names}")
        if self.missing_images:
            lines.append(f"{len(self.missing_images)} images not found: {', '.join(self.missing_images[:10])}")
        if self.ambiguous_images:
            lines.append(f"{len(self.ambiguous_images)} images not imported: --images holds several of that file "
                         f"name and the URL does not say which: {', '.join(self.ambiguous_images[:10])}")
        if self.replaced:
            lines.append(f"{len(self.replaced)} photos replaced their earlier label (the same photo under the same "
                         f"name; use --prefix to keep both): {', '.join(self.replaced[:10])}")
        lines += [f"skipped: {reason}" for reason in self.skipped[:20]]
        return "\n".join(lines)


# --- reading the sources -------------------------------------------------------------------------------------------


@contextmanager
def opened(source: Path) -> Iterator[Path]:
    """A folder for ``source``: itself, or a .zip extracted to a temporary folder (members that would land outside
    it are refused)."""
    source = Path(source)
    if source.is_dir() or source.suffix.lower() == ".json":
        yield source
        return
    if not zipfile.is_zipfile(source):
        raise ImportFormatError(f"{source} is neither a folder, a .json file nor a .zip archive")
    with tempfile.TemporaryDirectory(prefix="mjsnap-import-") as tmp, zipfile.ZipFile(source) as archive:
        root = Path(tmp).resolve()
        for member in archive.infolist():
            target = (root / member.filename).resolve()
            if not target.is_relative_to(root):
                raise ImportFormatError(f"{source}: member {member.filename!r} would be written outside the folder")
        archive.extractall(root)
        yield root


def detect_format(folder: Path) -> str:
    """Which export a folder (or .json file) is."""
    if folder.is_file():
        return "labelstudio-json"
    if (folder / "data.yaml").is_file() and any((folder / s / "images").is_dir() for s in ("train", "valid", "test")):
        return "roboflow-yolo"
    if (folder / "data.yaml").is_file() and (folder / "images").is_dir():
        return "cvat-yolo"
    if ((folder / "classes.txt").is_file() or (folder / "notes.json").is_file()) and (folder / "labels").is_dir():
        return "labelstudio-yolo"
    jsons = list(folder.glob("*.json"))
    if len(jsons) == 1:
        return "labelstudio-json"
    raise ImportFormatError(
        f"{folder} is not a known export: expected data.yaml with train/valid/test (Roboflow), data.yaml with "
        "images/<subset> (CVAT Ultralytics YOLO), classes.txt + labels/ (Label Studio YOLO) or a Label Studio .json"
    )


def _yaml_names(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a photo or other binary file under that name
        raise ImportFormatError(f"{path} is not a YAML file") from None
    try:
        import yaml
    except ImportError:
        names = read_class_names(text)
    else:
        try:
            raw = yaml.safe_load(text)
        except yaml.YAMLError:
            raise ImportFormatError(f"{path} does not read as YAML") from None
        raw = raw.get("names") if isinstance(raw, dict) else None
        numbered = isinstance(raw, dict) and all(isinstance(k, int) for k in raw)  # ultralytics' {0: 1m, ...}
        names = [raw[k] for k in sorted(raw)] if numbered else raw
    if not names or not isinstance(names, list):
        raise ImportFormatError(f"{path} lists no class names")
    return [str(n) for n in names]


def _notes_names(notes: Path) -> list[str]:
    """The class names of a Label Studio YOLO export's notes.json, in the order of their ids."""
    try:
        categories = jsontext.loads(notes.read_text(encoding="utf-8"))["categories"]
        by_id = {int(c["id"]): str(c["name"]) for c in categories}
        return [by_id[i] for i in range(len(by_id))]
    except (KeyError, TypeError, ValueError) as exc:  # not JSON, or no list of {"id", "name"} numbered from 0
        raise ImportFormatError(f"{notes} is not Label Studio's notes.json (categories with ids 0, 1, ... and "
                                f"names): {exc}") from None


def _classes_txt_names(classes: Path) -> list[str]:
    try:
        return [line.strip() for line in classes.read_text(encoding="utf-8").splitlines()]
    except UnicodeDecodeError:
        raise ImportFormatError(f"{classes} is not UTF-8 text (one class name a line)") from None


def _yolo_pairs(images: Path, labels: Path) -> Iterator[tuple[Path, Path]]:
    for image in sorted(p for p in images.rglob("*") if p.suffix.lower() in PHOTO_SUFFIXES):
        yield image, labels / image.relative_to(images).with_suffix(".txt")


def _read_yolo_label(label: Path, names: list[str], photo: SourcePhoto, report: ImportReport) -> None:
    if not label.is_file():
        return  # YOLO: an image without a label file has no objects
    try:
        text = label.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # read before anything is saved: the import stops with the dataset untouched
        raise ImportFormatError(f"{label} is not a YOLO label file (not UTF-8 text)") from None
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        try:
            index = int(parts[0])
            values = [float(v) for v in parts[1:]]
        except ValueError:
            report.skipped.append(f"{label}:{number}: {line!r} is not a YOLO line")
            continue
        if not 0 <= index < len(names):
            report.skipped.append(f"{label}:{number}: class index {index} is not in the export's {len(names)} names")
            continue
        if len(values) == 4:
            xc, yc, w, h = values
            box = (xc - w / 2, yc - h / 2, xc + w / 2, yc + h / 2)
        elif len(values) >= 6 and len(values) % 2 == 0:  # a polygon: its bounding box
            xs, ys = values[0::2], values[1::2]
            box = (min(xs), min(ys), max(xs), max(ys))
        else:
            report.skipped.append(f"{label}:{number}: {line!r} has {len(values)} numbers (expected 4 or a polygon)")
            continue
        photo.boxes.append(SourceBox(names[index], box))


def read_yolo_folders(folder: Path, fmt: str, report: ImportReport) -> list[SourcePhoto]:
    """The three YOLO-style exports: where the names and the image/label folders are differs."""
    if fmt == "roboflow-yolo":
        names = _yaml_names(folder / "data.yaml")
        subsets = [(d.name, d / "images", d / "labels") for d in sorted(folder.iterdir()) if (d / "images").is_dir()]
    elif fmt == "cvat-yolo":
        names = _yaml_names(folder / "data.yaml")
        subsets = [(d.name, d, folder / "labels" / d.name) for d in sorted((folder / "images").iterdir()) if d.is_dir()]
    else:  # labelstudio-yolo
        notes = folder / "notes.json"
        names = _notes_names(notes) if notes.is_file() else _classes_txt_names(folder / "classes.txt")
        subsets = [("train", folder / "images", folder / "labels")]
    photos = []
    for subset, images, labels in subsets:
        split = SPLIT_NAMES.get(subset.lower(), "train")
        paired = set()
        for image, label in _yolo_pairs(images, labels):
            photo = SourcePhoto(str(image.relative_to(folder)), image, [], split)
            _read_yolo_label(label, names, photo, report)
            photos.append(photo)
            paired.add(label)
        # a label whose image is not in the export: its boxes would be lost without a word (--strict fails on it)
        if labels.is_dir():
            report.missing_images += [f"{label.relative_to(folder)} (a label without its image)"
                                      for label in sorted(labels.rglob("*.txt")) if label not in paired]
    return photos


def _image_index(images: Path | None) -> dict[str, list[Path]]:
    """The photos under ``images`` by file name; one name may be in several folders (day1/IMG_0001.jpg, day2/...)."""
    index: dict[str, list[Path]] = {}
    for path in sorted(Path(images).rglob("*")) if images is not None else []:
        if path.suffix.lower() in PHOTO_SUFFIXES:
            index.setdefault(path.name, []).append(path)
    return index


def _url_path(url: str) -> PurePosixPath:
    """The path a Label Studio URL (or a plain path) points at."""
    parsed = urllib.parse.urlparse(url)
    local = urllib.parse.parse_qs(parsed.query).get("d")  # /data/local-files/?d=folder/IMG.jpg
    return PurePosixPath(urllib.parse.unquote(local[0] if local else parsed.path))


def _url_file_name(url: str) -> str:
    """The file name a Label Studio URL (or a plain path) points at."""
    return _url_path(url).name


def _images_named(url: str, index: dict[str, list[Path]]) -> list[Path]:
    name = _url_file_name(url)
    if name in index:
        return index[name]
    upload = _LABEL_STUDIO_UPLOAD.match(name)
    return index.get(upload.group(1), []) if upload else []


def _find_image(url: str, candidates: list[Path]) -> Path | None:
    """Of the images with the URL's file name, the one whose folders end as the URL's do (Label Studio's local files
    keep them: ?d=club/day2/IMG_0001.jpg); None when none is, or when the URL does not tell several apart: a guess
    would pair one photo with another's boxes."""
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    wanted = _url_path(url).parts
    shared = {path: _shared_tail(path.parts, wanted) for path in candidates}
    best = max(shared.values())
    matching = [path for path, count in shared.items() if count == best]
    return matching[0] if best > 0 and len(matching) == 1 else None


def _shared_tail(parts: tuple[str, ...], other: tuple[str, ...]) -> int:
    """How many trailing path parts two paths share."""
    count = 0
    for mine, theirs in zip(reversed(parts), reversed(other)):
        if mine != theirs:
            break
        count += 1
    return count


def _task_image_url(task: dict) -> str | None:
    data = task.get("data", task)
    if isinstance(data.get("image"), str):
        return data["image"]
    for value in data.values():
        if isinstance(value, str) and Path(urllib.parse.urlparse(value).path).suffix.lower() in PHOTO_SUFFIXES:
            return value
    return None


def _latest_annotation(task: dict) -> list[dict] | None:
    annotations = [a for a in task.get("annotations", []) if not a.get("was_cancelled")]
    if not annotations:
        return None
    return max(annotations, key=lambda a: (str(a.get("updated_at", "")), str(a.get("id", "")))).get("result", [])


def _rectangles(results: list[dict]) -> Iterator[tuple[dict, dict, list[str]]]:
    """(result, value, label names) of every rectangle; a bare Rectangle takes its names from the Labels result
    with the same region id."""
    names_by_id = {r.get("id"): r["value"].get("labels", []) for r in results if r.get("type") == "labels"}
    for result in results:
        kind, value = result.get("type"), result.get("value", {})
        if kind == "rectanglelabels":
            yield result, value, list(value.get("rectanglelabels", []))
        elif kind == "rectangle":
            yield result, value, list(names_by_id.get(result.get("id"), []))


def read_labelstudio_json(path: Path, images: Path | None, report: ImportReport) -> list[SourcePhoto]:
    if path.is_dir():
        path = next(path.glob("*.json"))
    try:
        tasks = jsontext.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ImportFormatError(f"{path} is not UTF-8 text (a Label Studio export is UTF-8 JSON)") from None
    except ValueError as exc:
        raise ImportFormatError(f"{path} is not JSON: {exc}") from None
    if not isinstance(tasks, list):
        raise ImportFormatError(f"{path}: a Label Studio export is a JSON list of tasks")
    index = _image_index(images)
    photos = []
    for number, task in enumerate(tasks, start=1):
        try:
            photo = _task_photo(number, task, index, report)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # a task not as Label Studio writes them (another tool's, or edited by hand): skipped and named, as a
            # task without an image is, rather than stopping the import at it
            missing = f"no {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
            report.skipped.append(f"task {number}: not in Label Studio's task format ({missing})")
            continue
        if photo is not None:
            photos.append(photo)
    return photos


def _task_photo(number: int, task: Any, index: dict[str, list[Path]], report: ImportReport) -> SourcePhoto | None:
    """The photo and boxes of one Label Studio task; None (with the reason in the report) for a task to skip."""
    url = _task_image_url(task) if isinstance(task, dict) else None
    if url is None:
        report.skipped.append(f"task {number}: no image URL in its data")
        return None
    results = _latest_annotation(task) if "annotations" in task else task.get("label")
    if results is None:
        report.skipped.append(f"task {number} ({url}): no annotation (predictions alone are not labels)")
        return None
    if "annotations" not in task:  # JSON-MIN: the values themselves, names under rectanglelabels
        results = [{"type": "rectanglelabels", "value": r, **r} for r in results]
    candidates = _images_named(url, index)
    photo = SourcePhoto(url, _find_image(url, candidates), [], "train")
    if photo.image is None and candidates:
        report.ambiguous_images.append(url)
        return None
    for result, value, labels in _rectangles(results):
        if len(labels) != 1:
            report.skipped.append(f"task {number}: a rectangle with {len(labels)} labels {labels}")
            continue
        x, y = float(value["x"]) / 100, float(value["y"]) / 100
        w, h = float(value["width"]) / 100, float(value["height"]) / 100
        if float(value.get("rotation", 0) or 0) % 360:
            report.skipped.append(f"task {number}: a rotated rectangle ({labels[0]}); mjsnap boxes are upright")
            continue
        photo.boxes.append(SourceBox(str(labels[0]), (x, y, x + w, y + h)))  # a number is an unknown class name
        if "original_width" in result:
            photo.size_hint = (int(result["original_width"]), int(result["original_height"]))
    return photo


# --- saving into the dataset ---------------------------------------------------------------------------------------


def dataset_name(source: str) -> str:
    """A LabelDataset name for a source file: its stem with other characters replaced by '_'."""
    stem = Path(_url_file_name(source)).stem
    upload = _LABEL_STUDIO_UPLOAD.match(stem)
    stem = upload.group(1) if upload else stem
    name = _name_characters(stem).lstrip("._-")[:NAME_MAX_LENGTH]
    return name or "photo"


def _name_characters(text: str) -> str:
    """``text`` in the characters a photo's name may hold: others become '_', and '..' too."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text).replace("..", "_")


def unique_name(base: str, used: set[str]) -> str:
    """``base``, or ``base-2``, ``base-3``... when another photo already took it (two sources can make one name:
    ``IMG 1.jpg`` and ``IMG_1.png``, or file names in Chinese); the name returned is added to ``used``. A base as
    long as a name may be is shortened to make room for the number."""
    name, n = base, 2
    while name in used:
        suffix = f"-{n}"
        name, n = f"{base[:NAME_MAX_LENGTH - len(suffix)]}{suffix}", n + 1
    used.add(name)
    return name


def name_prefix(prefix: str) -> str:
    """``--prefix`` as the start of a photo's name (other characters become '_', as in the names themselves);
    LabelError when no name could start with it, raised before anything is imported."""
    part = _name_characters(prefix)
    if part and not part[0].isalnum():
        raise LabelError(f"--prefix {prefix!r}: a photo's name must start with a letter or digit", "bad_label_name")
    return part


def import_export(
    source: Path, dataset_root: Path, fmt: str = "auto", images: Path | None = None, prefix: str = ""
) -> ImportReport:
    """Read an export and save every photo into the dataset folder (atomic saves; names stay inside it)."""
    dataset = LabelDataset(dataset_root)
    prefix = name_prefix(prefix)
    with opened(Path(source)) as folder:
        chosen = detect_format(folder) if fmt == "auto" else fmt
        if chosen not in FORMATS:
            raise ImportFormatError(f"format {chosen!r} is not one of {', '.join(FORMATS)}")
        report = ImportReport(chosen)
        if chosen == "labelstudio-json":
            photos = read_labelstudio_json(folder, images, report)
            _require_some_image(photos, images, report.ambiguous_images)
        else:
            photos = read_yolo_folders(folder, chosen, report)
        # the folder is made by the first photo saved: a wrong source, or one whose photos are all unreadable,
        # leaves no new folder behind; a folder of another class list is refused before any photo
        dataset.check_class_names()
        used: set[str] = set()
        for photo in photos:
            _save_photo(dataset, photo, prefix, used, report)
    return report


def _require_some_image(photos: list[SourcePhoto], images: Path | None, ambiguous: list[str]) -> None:
    """Label Studio JSON names its images by URL only: when not one is found, the images folder is wrong or was not
    given, and the import stops (before the dataset is made) with a hint rather than importing nothing."""
    if not photos or any(photo.image is not None for photo in photos):
        if not photos and ambiguous:  # found, but by names several images in --images share
            raise ImportFormatError(
                f"{images} holds several images of each name the tasks give (the first: {ambiguous[0]}) and the "
                "URLs do not say which: pass --images the folder of this project's images alone"
            )
        return
    where = f"in {images}" if images is not None else "without --images"
    raise ImportFormatError(
        f"none of the {len(photos)} labelled images was found {where} (the first: {photos[0].source}); pass "
        "--images FOLDER, the folder holding them (searched recursively, matched by file name)"
    )


def _save_photo(dataset: LabelDataset, photo: SourcePhoto, prefix: str, used: set[str], report: ImportReport) -> None:
    if photo.image is None or not photo.image.is_file():
        report.missing_images.append(photo.source)
        return
    base = (prefix + dataset_name(photo.source))[:NAME_MAX_LENGTH]
    try:
        with opened_photo(photo.image) as opened_image:
            image = upright(opened_image).convert("RGB")
    except ImageReadError as exc:  # damaged, no photo, or a decompression bomb: the others are still imported
        report.skipped.append(f"{photo.source}: unreadable image ({exc})")
        return
    if photo.size_hint and photo.size_hint != image.size:
        report.skipped.append(f"note: {photo.source}: the tool saw it {photo.size_hint[0]}x{photo.size_hint[1]}, "
                              f"upright it is {image.width}x{image.height}; boxes kept as fractions of the image")
    boxes, unknown = [], 0
    for item in photo.boxes:
        cls = class_id(item.label)
        if cls is None:
            report.unknown_classes[item.label] += 1
            unknown += 1
            continue
        x1, y1, x2, y2 = (min(max(v, 0.0), 1.0) for v in item.box)
        if x2 <= x1 or y2 <= y1:
            report.skipped.append(f"{photo.source}: a {item.label} box {item.box} lies outside the image")
            continue
        try:
            boxes.append(LabelBox(cls, (x1 * image.width, y1 * image.height, x2 * image.width, y2 * image.height)))
        except LabelError as exc:
            report.skipped.append(f"{photo.source}: {exc}")
    split = "review" if unknown else photo.split
    while True:  # a name the dataset holds with another photo (an earlier import, the app) is kept: -2, -3...
        name = unique_name(base, used)
        replacing = dataset.find(name) is not None
        try:
            dataset.save(name, image, boxes, split=split, replace_other=False)
        except LabelError as exc:
            if exc.code == "name_taken":
                continue
            report.skipped.append(f"{photo.source}: {exc}")
            return
        break
    if name != Path(photo.source).stem:
        report.renamed[photo.source] = name
    if replacing:
        report.replaced.append(name)
    if unknown:
        report.review.append(name)
    report.photos += 1
    report.boxes += len(boxes)
    report.splits[split] += 1
