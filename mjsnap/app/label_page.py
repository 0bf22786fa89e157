"""Labelling page: open a folder of photos, start from the current model's boxes, fix them, mark each photo done.

Boxes are edited as numbers (class, x1 y1 x2 y2 in pixels of the upright photo) in a table where rows can be added
and deleted, and a box's class can be set with the tile picker. "Done" saves the photo into the dataset folder's
``train`` split (``val`` stays ``val``), "Save for later" into ``review``; both go through `mjsnap.labels`
(atomic writes, names kept inside the folder). Split train/val by session afterwards with `mjsnap label split`.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from PIL import Image, ImageDraw, ImageFont

from mjsnap.app import corrections, recognize
from mjsnap.app.editor import tile_buttons
from mjsnap.app.i18n import SPLIT_NAMES, label_problem, pick, tile_name, tr
from mjsnap.dataset.importers import dataset_name, unique_name
from mjsnap.labels import LabelBox, LabelDataset, LabelError
from scoring.tiles import BACK, CLASS_NAMES
from vision.imageio import PHOTO_SUFFIXES
from vision.imageio import upright as exif_upright

DISPLAY_SIDE = 1024
COLUMNS = ("cls", "x1", "y1", "x2", "y2")


def list_photos(folder: Path) -> list[Path]:
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)


def photo_names(photos: list[Path]) -> list[str]:
    """The dataset name of each photo, one per photo: names made alike (``第一手.jpg`` and ``第二手.jpg`` are both
    'photo') get ``-2``, ``-3``..., as `mjsnap label import` does, so saving one never replaces another's label."""
    used: set[str] = set()
    return [unique_name(dataset_name(p.name), used) for p in photos]


def picker_label(kind: int, lang: str) -> str:
    """A picker button: the class as the label files write it (5p), the back and the flower by name."""
    return CLASS_NAMES[kind] if kind < BACK else tile_name(kind, lang)


def upright(path: Path) -> Image.Image:
    with Image.open(path) as image:
        return exif_upright(image).convert("RGB")


def rows_from_boxes(boxes: list[LabelBox]) -> list[dict]:
    return [{"cls": CLASS_NAMES[b.cls], **{k: round(v, 1) for k, v in zip(COLUMNS[1:], b.box)}} for b in boxes]


def boxes_from_rows(rows: list[dict]) -> list[LabelBox]:
    """LabelBoxes of the table rows; a bad row raises LabelError naming it."""
    boxes = []
    for number, row in enumerate(rows, start=1):
        if row.get("cls") not in CLASS_NAMES:
            raise LabelError(f"box {number}: choose a tile class (got {row.get('cls')!r})", "no_tile_class", number)
        try:
            box = tuple(float(row[k]) for k in COLUMNS[1:])
            boxes.append(LabelBox(CLASS_NAMES.index(row["cls"]), box))
        except (TypeError, ValueError, KeyError) as exc:
            raise LabelError(f"box {number}: {exc}", getattr(exc, "code", "bad_box_numbers"), number) from None
    return boxes


def initial_rows(dataset: LabelDataset, name: str, path: Path, lang: str) -> tuple[list[dict], str]:
    """The photo's saved label, else the current model's detections, else nothing; with a note saying which."""
    t = tr(lang)
    split = dataset.find(name)
    other = dataset.other_photo(name, upright(path)) if split is not None else None
    if other is not None:  # a photo of another folder saved under this name: not its boxes, and not over it
        broken = t("lp_other_photo", path=dataset.image_path(name, other))
    elif split is not None:
        try:
            return rows_from_boxes(dataset.load(name, split)), t("lp_from_saved", split=pick(SPLIT_NAMES[split], lang))
        except (LabelError, OSError, UnicodeDecodeError) as exc:  # a damaged label: start over from the model, say so
            broken = t("lp_damaged", path=dataset.label_path(name, split), detail=label_problem(exc, lang))
    else:
        broken = None
    try:
        detector = recognize.load_detector(str(recognize.model_dir()))
        dets = detector.detect(upright(path))
    except (FileNotFoundError, ValueError, OSError) as exc:
        return [], " ".join(filter(None, [broken, t("lp_no_model", detail=exc)]))
    rows = [row for c, b in zip(dets.class_id, dets.xyxy) for row in _detection_row(int(c), b)]
    return rows, " ".join(filter(None, [broken, t("lp_from_model", version=detector.version)]))


def _detection_row(cls: int, box) -> list[dict]:
    try:
        return rows_from_boxes([LabelBox(cls, tuple(map(float, box)))])
    except LabelError:  # a degenerate box is of no use to a person either
        return []


def save_photo(dataset: LabelDataset, name: str, path: Path, rows: list[dict], done: bool):
    """Save the photo and its boxes: done -> train (a val photo stays in val), not done -> review. Another photo
    saved under the same name (from another folder) is never replaced: LabelError ``name_taken``."""
    previous = dataset.find(name)
    split = ("val" if previous == "val" else "train") if done else "review"
    return dataset.save(name, upright(path), boxes_from_rows(rows), split=split, replace_other=False)


def draw_boxes(image: Image.Image, rows: list[dict], selected: int | None) -> Image.Image:
    factor = min(1.0, DISPLAY_SIDE / max(image.size))
    shown = image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))))
    draw = ImageDraw.Draw(shown)
    font = ImageFont.load_default(size=max(12, max(shown.size) // 60))
    for number, row in enumerate(rows, start=1):
        try:
            box = [float(row[k]) * factor for k in COLUMNS[1:]]
        except (TypeError, ValueError, KeyError):
            continue
        colour = (240, 170, 0) if number - 1 == selected else (40, 170, 80)
        draw.rectangle(box, outline=colour, width=4 if number - 1 == selected else 2)
        draw.text((box[0] + 2, box[1] + 2), f"{number} {row.get('cls')}", fill=colour, font=font)
    return shown


# --- the page ------------------------------------------------------------------------------------------------------


def _state() -> dict:
    if "lp" not in st.session_state:
        # rows: the current boxes of each photo; base: what the table was last given (the table keeps its own
        # edits on top of that, so the current rows are never fed back to the same table); box: the selected box
        # of each photo, which the box selector's fresh key after an edit would otherwise send back to the first
        st.session_state.lp = {"index": 0, "rows": {}, "base": {}, "notes": {}, "version": 0, "done": set(),
                               "saved": None, "box": {}}
    return st.session_state.lp


def _edit(name: str, change) -> None:
    """Apply ``change`` to the photo's rows and give the table a fresh key (so it shows the new rows)."""
    lp = _state()
    lp["rows"][name] = lp["base"][name] = change(list(lp["rows"][name]))
    lp["version"] += 1


def _set_class(name: str, box: int, kind: int) -> None:
    _edit(name, lambda rows: [dict(r, cls=CLASS_NAMES[kind]) if i == box else r for i, r in enumerate(rows)])


def _add_box(name: str, width: int, height: int) -> None:
    def add(rows):
        last = rows[-1]["cls"] if rows else CLASS_NAMES[0]
        w, h = width / 12, width / 9
        return [*rows, {"cls": last, "x1": round(width / 2 - w / 2, 1), "y1": round(height / 2 - h / 2, 1),
                        "x2": round(width / 2 + w / 2, 1), "y2": round(height / 2 + h / 2, 1)}]

    _edit(name, add)
    lp = _state()
    lp["box"][name] = len(lp["rows"][name]) - 1  # the new box is the one to set a class for


def _delete_box(name: str, box: int) -> None:
    _edit(name, lambda rows: [r for i, r in enumerate(rows) if i != box])


def _save(dataset: LabelDataset, name: str, path: Path, done: bool, count: int) -> None:
    lp = _state()
    try:
        saved = save_photo(dataset, name, path, lp["rows"][name], done)
    except (LabelError, OSError) as exc:
        lp["saved"] = ("error", exc)  # shown in the language of the page when it is shown
        return
    lp["saved"] = ("ok", str(saved.label))
    if done:
        lp["done"].add(name)
        lp["index"] = min(lp["index"] + 1, count - 1)


def _move(step: int, count: int) -> None:
    lp = _state()
    lp["index"] = max(0, min(count - 1, lp["index"] + step))


def show(t, lang: str) -> None:
    lp = _state()
    folder = Path(st.text_input(t("lp_folder"), key="lp_folder"))
    st.session_state.setdefault("lp_dataset", str(corrections.labels_dir()))  # not value=: state.keep_inputs sets it
    dataset_field = st.text_input(t("lp_dataset"), key="lp_dataset")
    if not dataset_field.strip():  # else labels would land in the server's working folder, or one named " "
        st.warning(t("lp_no_dataset"))
        return
    dataset = LabelDataset(dataset_field)
    given = str(folder) not in ("", ".")
    try:
        if given and not folder.is_dir():  # a typo, not an empty folder: say which
            st.warning(t("lp_no_folder", folder=folder))
            return
        photos = list_photos(folder) if given else []
    except OSError as exc:  # a name too long, a folder that may not be read
        st.warning(t("lp_folder_unreadable", folder=folder, detail=exc.strerror or exc))
        return
    if not photos:
        st.info(t("lp_no_photos") if given else t("lp_enter_folder"))
        return
    names = photo_names(photos)
    lp["index"] = min(lp["index"], len(photos) - 1)
    try:
        done = {n for n in names if n in lp["done"] or dataset.find(n) in ("train", "val")}
    except (LabelError, OSError, ValueError) as exc:  # a dataset path too long or with a NUL, a link out of it
        st.warning(t("lp_bad_dataset", detail=label_problem(exc, lang)))
        return
    st.progress(len(done) / len(photos), text=t("lp_progress", done=len(done), total=len(photos)))
    with st.container(horizontal=True):
        st.button(t("lp_prev"), key="lp_prev", on_click=_move, args=(-1, len(photos)))
        st.button(t("lp_next"), key="lp_next", on_click=_move, args=(1, len(photos)))
    index = lp["index"]
    path, name = photos[index], names[index]
    st.caption(f"{t('lp_photo')} {index + 1}/{len(photos)}: {path.name}" + (" ✅" if name in done else ""))
    try:
        image = upright(path)
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):  # damaged: the others stay a tap away
        st.error(t("not_an_image", name=path.name))
        return
    if name not in lp["rows"]:
        lp["rows"][name], lp["notes"][name] = initial_rows(dataset, name, path, lang)
        lp["base"][name] = lp["rows"][name]
    st.caption(lp["notes"][name])
    selector, picture = st.container(), st.empty()  # filled after the table, which holds this run's edits
    st.caption(t("lp_table_help"))
    edited = st.data_editor(
        lp["base"][name], key=f"lp_table_{name}_{lp['version']}", num_rows="dynamic", width="stretch",
        column_config={"cls": st.column_config.SelectboxColumn(t("lp_tile"), options=list(CLASS_NAMES), required=True),
                       **{k: st.column_config.NumberColumn(k, min_value=0.0, step=1.0) for k in COLUMNS[1:]}},
    )
    rows = lp["rows"][name] = [dict(r) for r in edited] if isinstance(edited, list) else edited.to_dict("records")
    selected = selector.selectbox(t("lp_box"), list(range(len(rows))), key=f"lp_selected_{name}_{lp['version']}",
                                  index=min(lp["box"].get(name, 0), len(rows) - 1),
                                  format_func=lambda i: f"{i + 1}: {rows[i].get('cls')}") if rows else None
    if selected is not None:
        lp["box"][name] = selected
    picture.image(draw_boxes(image, rows, selected))
    with st.container(horizontal=True):
        st.button(t("lp_add"), key="lp_add", on_click=_add_box, args=(name, image.width, image.height))
        if selected is not None:
            st.button(t("lp_delete"), key="lp_delete", on_click=_delete_box, args=(name, selected))
    if selected is not None:
        st.caption(t("lp_pick"))
        tile_buttons(lang, "lp_pick_", lambda kind: picker_label(kind, lang), _set_class,
                     lambda kind: (name, selected, kind))
        flower = len(CLASS_NAMES) - 1
        st.button(picker_label(flower, lang), key="lp_pick_flower", on_click=_set_class, args=(name, selected, flower))
    with st.container(horizontal=True):
        st.button(t("lp_done"), key="lp_done", type="primary", on_click=_save,
                  args=(dataset, name, path, True, len(photos)))
        st.button(t("lp_later"), key="lp_later", on_click=_save, args=(dataset, name, path, False, len(photos)))
    if lp["saved"]:
        kind, message = lp["saved"]
        if kind == "ok":
            st.success(t("lp_saved", path=message))
        else:
            st.error(t("lp_not_saved", detail=label_problem(message, lang)))

