"""Labelling page: open a folder of photos, start from the current model's boxes, fix them, mark each photo done.

Boxes are edited by touch or as numbers: a tap on the photo picks the box under it, or adds a box where there is none
(the size of the photo's other boxes); arrow buttons move and resize the picked box; the tile picker sets its class.
The same boxes are a table (class, x1 y1 x2 y2 in pixels of the upright photo) where rows can be edited, added and
deleted. "Done" saves the photo into the dataset folder's
``train`` split (``val`` stays ``val``), "Save for later" into ``review``; both go through `mjsnap.labels`
(atomic writes, names kept inside the folder). Split train/val by session afterwards with `mjsnap label split`.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from statistics import median

import streamlit as st
from PIL import Image, ImageDraw, ImageFont

from mjsnap.app import corrections, recognize
from mjsnap.app.editor import tile_buttons
from mjsnap.app.i18n import SPLIT_NAMES, label_problem, pick, tile_name, tr
from mjsnap.app.taps import smallest_box_at, tappable_photo
from mjsnap.dataset.importers import dataset_name, unique_name
from mjsnap.labels import ANY_SAVE, LabelBox, LabelDataset, LabelError
from scoring.tiles import BACK, CLASS_NAMES
from vision.imageio import PHOTO_SUFFIXES
from vision.imageio import upright as exif_upright

DISPLAY_SIDE = 1024
COLUMNS = ("cls", "x1", "y1", "x2", "y2")
NUDGE = 0.125  # an arrow moves the picked box by this share of its size; "bigger" / "smaller" grow or shrink it so
MIN_SIDE = 4.0  # pixels: "smaller" stops here, a box must keep an area


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
        detector = recognize.current_detector()
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


def _corners(row: dict) -> tuple[float, float, float, float] | None:
    try:
        return tuple(float(row[k]) for k in COLUMNS[1:])
    except (TypeError, ValueError, KeyError):  # a cell being typed: that box is not where a tap can find it
        return None


def box_at(rows: list[dict], x: float, y: float) -> int | None:
    """The box a tap at (x, y) (photo pixels) means (a row whose numbers are being typed is no box to tap)."""
    return smallest_box_at(map(_corners, rows), x, y)


def box_added_at(rows: list[dict], x: float, y: float, width: int, height: int) -> dict:
    """A new box centred where the tap landed, as large as the photo's other boxes (their median), kept inside the
    photo; it takes the class of the last box (a missed tile usually sits beside its like)."""
    sizes = [(b[2] - b[0], b[3] - b[1]) for b in map(_corners, rows) if b]
    w, h = (median(s[0] for s in sizes), median(s[1] for s in sizes)) if sizes else (width / 12, width / 9)
    w, h = min(w, width), min(h, height)
    x1, y1 = min(max(x - w / 2, 0.0), width - w), min(max(y - h / 2, 0.0), height - h)
    return {"cls": rows[-1]["cls"] if rows else CLASS_NAMES[0],
            **{k: round(v, 1) for k, v in zip(COLUMNS[1:], (x1, y1, x1 + w, y1 + h))}}


def nudged(row: dict, move: str, width: int, height: int) -> dict:
    """The box moved (left, right, up, down) by NUDGE of its size, or grown or shrunk (bigger, smaller) by NUDGE
    about its centre; kept inside the photo. A row whose numbers are being typed is left as it is."""
    box = _corners(row)
    if box is None:
        return row
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    if move in ("bigger", "smaller"):
        grow = NUDGE / 2 if move == "bigger" else -NUDGE / 2
        dw, dh = max(w * grow, (MIN_SIDE - w) / 2), max(h * grow, (MIN_SIDE - h) / 2)
        x1, y1, x2, y2 = max(x1 - dw, 0.0), max(y1 - dh, 0.0), min(x2 + dw, width), min(y2 + dh, height)
    else:
        dx, dy = {"left": (-w, 0), "right": (w, 0), "up": (0, -h), "down": (0, h)}[move]
        dx = min(max(dx * NUDGE, -x1), width - x2)
        dy = min(max(dy * NUDGE, -y1), height - y2)
        x1, y1, x2, y2 = x1 + dx, y1 + dy, x2 + dx, y2 + dy
    return dict(row, **{k: round(v, 1) for k, v in zip(COLUMNS[1:], (x1, y1, x2, y2))})


def save_photo(dataset: LabelDataset, name: str, path: Path, rows: list[dict], done: bool, last_seen=ANY_SAVE):
    """Save the photo and its boxes: done -> train (a val photo stays in val), not done -> review. Another photo
    saved under the same name (from another folder) is never replaced: LabelError ``name_taken``; nor, with
    ``last_seen`` (the dataset's `saved_stamp` when the rows were taken), a label saved since then by another
    session: LabelError ``saved_meanwhile``."""
    return dataset.save(name, upright(path), boxes_from_rows(rows), split=dataset.split_to_save(name, done),
                        replace_other=False, last_seen=last_seen)


def tiles_region(rows: list[dict], width: int, height: int) -> tuple[int, int, int, int]:
    """The part of the photo worth showing on a phone: around every box, with a margin of about one tile (room to
    tap in a missed tile beside a row); the whole photo when there is no box."""
    boxes = [b for b in map(_corners, rows) if b]
    if not boxes:
        return 0, 0, width, height
    margin = max(median(b[2] - b[0] for b in boxes), median(b[3] - b[1] for b in boxes)) * 1.5
    return (max(0, int(min(b[0] for b in boxes) - margin)), max(0, int(min(b[1] for b in boxes) - margin)),
            min(width, int(max(b[2] for b in boxes) + margin + 1)), min(height, int(max(b[3] for b in boxes) + margin + 1)))


def draw_boxes(image: Image.Image, rows: list[dict], selected: int | None,
               region: tuple[int, int, int, int] | None = None) -> Image.Image:
    """The photo's ``region`` (photo pixels; the whole photo when None) at most DISPLAY_SIDE on its longer side,
    with the boxes numbered as the table's rows (box 1 is row 1); the picked box in orange."""
    left, top, right, bottom = region or (0, 0, image.width, image.height)
    part = image.crop((left, top, right, bottom))
    factor = min(1.0, DISPLAY_SIDE / max(part.size))
    shown = part.resize((max(1, round(part.width * factor)), max(1, round(part.height * factor))))
    draw = ImageDraw.Draw(shown)
    boxes = [(number, [(v - (left, top)[i % 2]) * factor for i, v in enumerate(corners)])
             for number, corners in enumerate(map(_corners, rows), start=1) if corners]
    # the number alone, as large as a box holds it: the tile shows its face, the selector and table its class
    size = max(12, min(max(shown.size) // 20, int(median(b[2] - b[0] for _, b in boxes) * 0.5))) if boxes else 12
    font = ImageFont.load_default(size=size)
    for number, box in boxes:
        colour = (240, 170, 0) if number - 1 == selected else (40, 170, 80)
        draw.rectangle(box, outline=colour, width=4 if number - 1 == selected else 2)
        left_, top_, right_, bottom_ = draw.textbbox((box[0] + 2, box[1] + 2), str(number), font=font)
        draw.rectangle((left_ - 2, top_ - 2, right_ + 2, bottom_ + 2), fill=colour)
        draw.text((box[0] + 2, box[1] + 2), str(number), fill=(255, 255, 255), font=font)
    return shown


# --- the page ------------------------------------------------------------------------------------------------------


def _state() -> dict:
    if "lp" not in st.session_state:
        # rows: the current boxes of each photo; base: what the table was last given (the table keeps its own
        # edits on top of that, so the current rows are never fed back to the same table); box: the selected box
        # of each photo, which the box selector's fresh key after an edit would otherwise send back to the first;
        # seen: (dataset folder, name) -> the save of the photo its rows started from (LabelDataset.saved_stamp),
        # so that a label another session saves meanwhile is not replaced unasked
        st.session_state.lp = {"index": 0, "rows": {}, "base": {}, "notes": {}, "version": 0, "done": set(),
                               "saved": None, "box": {}, "seen": {}}
    return st.session_state.lp


def _edit(name: str, change) -> None:
    """Apply ``change`` to the photo's rows and give the table a fresh key (so it shows the new rows)."""
    lp = _state()
    lp["rows"][name] = lp["base"][name] = change(list(lp["rows"][name]))
    lp["version"] += 1


def _set_class(name: str, box: int, kind: int) -> None:
    _edit(name, lambda rows: [dict(r, cls=CLASS_NAMES[kind]) if i == box else r for i, r in enumerate(rows)])


def _add_box(name: str, width: int, height: int, x: float | None = None, y: float | None = None) -> None:
    """A box at (x, y), the photo's centre when not given (the Add button)."""
    x, y = width / 2 if x is None else x, height / 2 if y is None else y
    _edit(name, lambda rows: [*rows, box_added_at(rows, x, y, width, height)])
    lp = _state()
    lp["box"][name] = len(lp["rows"][name]) - 1  # the new box is the one to set a class for


def _tap(name: str, width: int, height: int, x: float, y: float) -> None:
    """A tap on the photo at (x, y): pick the box under it, or add one there."""
    picked = box_at(_state()["rows"][name], x, y)
    if picked is None:
        _add_box(name, width, height, x, y)
    else:
        _state()["box"][name] = picked
        _edit(name, list)  # a fresh key for the box selector, which would otherwise keep its own choice


def _nudge(name: str, box: int, move: str, width: int, height: int) -> None:
    _edit(name, lambda rows: [nudged(r, move, width, height) if i == box else r for i, r in enumerate(rows)])


def _delete_box(name: str, box: int) -> None:
    _edit(name, lambda rows: [r for i, r in enumerate(rows) if i != box])


def _save(dataset: LabelDataset, name: str, path: Path, done: bool, count: int) -> None:
    lp = _state()
    seen = (str(dataset.root), name)
    try:
        saved = save_photo(dataset, name, path, lp["rows"][name], done, lp["seen"].get(seen, ANY_SAVE))
    except (LabelError, OSError) as exc:
        if getattr(exc, "code", None) == "saved_meanwhile":  # said once: pressed again, these boxes replace it
            lp["seen"][seen] = dataset.saved_stamp(name)
        lp["saved"] = ("error", exc)  # shown in the language of the page when it is shown
        return
    lp["seen"][seen] = saved.stamp
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
        lp["seen"][(str(dataset.root), name)] = dataset.saved_stamp(name)  # first: a save after it is another's
        lp["rows"][name], lp["notes"][name] = initial_rows(dataset, name, path, lang)
        lp["base"][name] = lp["rows"][name]
    st.caption(lp["notes"][name])
    # filled after the table (last on the page: numbers are for a keyboard), which holds this run's edits
    selector, picture, controls = st.container(), st.empty(), st.container()
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
    with controls:
        whole = st.toggle(t("lp_whole_photo"), key="lp_whole_photo")
        st.caption(t("lp_tap_help"))
    region = (0, 0, image.width, image.height) if whole else tiles_region(rows, image.width, image.height)
    with picture:
        tappable_photo(draw_boxes(image, rows, selected, region), f"lp_tap_{name}", region,
                       partial(_tap, name, image.width, image.height))
    _box_controls(t, lang, name, image, selected, controls)
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


def _box_controls(t, lang: str, name: str, image: Image.Image, selected: int | None, controls) -> None:
    """Add and delete, the arrows, the tile picker: under the photo, where a thumb is."""
    with controls:
        with st.container(horizontal=True):
            st.button(t("lp_add"), key="lp_add", on_click=_add_box, args=(name, image.width, image.height))
            if selected is not None:
                st.button(t("lp_delete"), key="lp_delete", on_click=_delete_box, args=(name, selected))
        if selected is None:
            return
        with st.container(horizontal=True):
            for move, label in (("left", "⬅"), ("right", "➡"), ("up", "⬆"), ("down", "⬇"),
                                ("bigger", t("lp_bigger")), ("smaller", t("lp_smaller"))):
                st.button(label, key=f"lp_nudge_{move}", on_click=_nudge,
                          args=(name, selected, move, image.width, image.height))
        st.caption(t("lp_pick"))
        tile_buttons(lang, "lp_pick_", lambda kind: picker_label(kind, lang), _set_class,
                     lambda kind: (name, selected, kind))
        flower = len(CLASS_NAMES) - 1
        st.button(picker_label(flower, lang), key="lp_pick_flower", on_click=_set_class, args=(name, selected, flower))
