"""The synthetic photo generator: deterministic, labels that match what was drawn, the contract's file layout."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import astuple, replace
from pathlib import Path

import numpy as np
import pytest

from scoring.hand import Hand
from scoring.shapes import is_complete
from scoring.tiles import BACK, CLASS_NAMES
from vision.synth import scene as scene_module
from vision.synth.convention import convention_breaks, layout_facts
from vision.synth.hands import random_hand
from vision.synth.layout import (
    CONVENTIONAL,
    LOOSE,
    Geometry,
    Spacing,
    add_extras,
    footprint,
    in_line_with_row,
    layout_hand,
)
from vision.synth.drawn import scheme_pool
from vision.synth import printed
from vision.synth.scene import SynthOptions, _visible_box, make_sample
from vision.synth.tile import BACK_COLOURS, FACE_LIKE, back_unlike_face
from vision.synth.writer import write_dataset

SMALL = SynthOptions(imgsz_min=256, imgsz_max=384, tileart=None)
MAGENTA = np.array([255.0, 0.0, 255.0], np.float32)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_gives_identical_files_and_workers_do_not_matter(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    list(write_dataset(a, 4, seed=5, val_fraction=0.25, options=SMALL))
    list(write_dataset(b, 4, seed=5, val_fraction=0.25, workers=2, options=SMALL))
    list(write_dataset(c, 4, seed=6, val_fraction=0.25, options=SMALL))
    fa, fb, fc = _files(a), _files(b), _files(c)
    assert {k: v for k, v in fa.items() if k != "data.yaml"} == {k: v for k, v in fb.items() if k != "data.yaml"}
    images_a = [v for k, v in fa.items() if k.endswith(".jpg")]
    images_c = [v for k, v in fc.items() if k.endswith(".jpg")]
    assert len(images_a) == 4 and not set(images_a) & set(images_c)


def test_dataset_layout_and_json_match_the_txt_labels(tmp_path: Path) -> None:
    list(write_dataset(tmp_path, 5, seed=1, val_fraction=0.4, options=SMALL))
    assert sorted(p.name for p in (tmp_path / "images" / "val").iterdir()) == [
        "synth_s1_000003.jpg", "synth_s1_000004.jpg"]
    data = (tmp_path / "data.yaml").read_text()
    assert "nc: 36" in data and "  34: back" in data and "  35: flower" in data
    for label in sorted((tmp_path / "labels").rglob("*.txt")):
        split, name = label.parent.name, label.stem
        layout = json.loads((tmp_path / "layouts" / split / f"{name}.json").read_text())
        assert layout["image"] == f"images/{split}/{name}.jpg" and (tmp_path / layout["image"]).exists()
        lines = [line.split() for line in label.read_text().splitlines()]
        assert len(lines) == len(layout["tiles"]) > 0
        W, H = layout["width"], layout["height"]
        for line, tile in zip(lines, layout["tiles"], strict=True):
            cls, cx, cy, w, h = int(line[0]), *map(float, line[1:])
            assert CLASS_NAMES[cls] == tile["cls"]
            x1, y1, x2, y2 = tile["box"]
            assert 0 <= x1 < x2 <= W and 0 <= y1 < y2 <= H
            assert (cx * W, cy * H, w * W, h * H) == pytest.approx(((x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1),
                                                                  abs=0.02)
            assert tile["role"] in ("concealed", "win", "meld", "discard", "clutter")
            assert (tile["meld"] is not None) == (tile["role"] == "meld")
            assert tile["face_down"] == (tile["cls"] == "back")
        hand = layout["hand"]
        Hand.parse(hand["concealed"], hand["melds"], hand["win_tile"])  # a valid hand with the right tile count


@pytest.mark.parametrize("seed", range(30))
def test_hands_are_valid_and_winning_ones_are_complete(seed: int) -> None:
    spec = random_hand(np.random.default_rng([seed, 0]))
    hand = Hand.parse("".join(f"{CLASS_NAMES[k]} " for k in spec.concealed),
                      [m.to_json() for m in spec.melds],
                      CLASS_NAMES[spec.win_tile] if spec.win_tile is not None else None)
    if spec.shape == "not_winning":
        assert hand.win_tile is None
    else:
        assert is_complete(hand.closed_tiles, hand.melds), spec


def _flat_photo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw onto a magenta table with no light or lens effects, so tile pixels can be told from the table."""
    monkeypatch.setattr(scene_module, "random_background",
                        lambda rng, h, w: ("magenta", np.broadcast_to(MAGENTA, (h, w, 3)).copy()))
    monkeypatch.setattr(scene_module, "photo_effects", lambda img, rng: np.clip(img, 0, 255).astype(np.uint8))
    monkeypatch.setattr(scene_module, "FINGER_CHANCE", 0.0)
    monkeypatch.setattr(scene_module, "TRAY_CHANCE", 0.0)  # an unlabelled white tray would read as tile pixels
    monkeypatch.setattr(scene_module, "add_printed_matter", lambda img, rng: 0)  # nor would white paper


def _tile_pixels(image: np.ndarray) -> np.ndarray:
    """True where a tile is drawn: magenta table and its (darkened magenta) shadows are excluded."""
    img = image.astype(np.int32)
    return (np.abs(img[..., 0] - img[..., 2]) > 40) | (img[..., 1] > 40)


@pytest.mark.parametrize("index", range(8))
def test_labels_match_what_was_drawn(monkeypatch: pytest.MonkeyPatch, index: int) -> None:
    _flat_photo(monkeypatch)
    sample = make_sample(11, index, SMALL)
    H, W = sample.image.shape[:2]
    tiles = _tile_pixels(sample.image)
    covered = np.zeros_like(tiles)
    for t in sample.tiles:
        x1, y1, x2, y2 = t.box
        assert 0 <= x1 < x2 <= W and 0 <= y1 < y2 <= H
        box = tiles[int(y1):int(np.ceil(y2)), int(x1):int(np.ceil(x2))]
        assert box.mean() > 0.3, f"labelled box {t} is mostly empty: nothing (or a hidden tile) drawn there"
        covered[max(int(y1) - 2, 0):int(np.ceil(y2)) + 2, max(int(x1) - 2, 0):int(np.ceil(x2)) + 2] = True
    if sample.scene["tiles_drawn"] == sample.scene["tiles_labelled"]:
        outside = tiles & ~covered
        assert outside.sum() <= 0.002 * tiles.sum() + 5, "tile pixels drawn outside every label"


@pytest.mark.parametrize("index", range(24))
def test_label_counts_and_classes_equal_the_hand(index: int) -> None:
    sample = make_sample(21, index, SMALL)
    hand_labels = [t for t in sample.tiles if t.role in ("concealed", "win", "meld")]
    shown = list(sample.hand.concealed) + [m for meld in sample.hand.melds for m in meld.tiles]
    if sample.hand.win_tile is not None:
        shown.append(sample.hand.win_tile)
    if not sample.scene["hand_tiles_labelled"]:
        pytest.skip("part of the hand is out of frame in this photo")
    assert len(hand_labels) == len(shown) == 13 + (sample.hand.win_tile is not None) + sum(
        len(m.tiles) == 4 for m in sample.hand.melds)
    faces = Counter(t.cls for t in hand_labels if t.cls != BACK)
    assert not faces - Counter(shown), "a labelled face is not in the hand"
    backs = sum(t.cls == BACK for t in hand_labels)
    concealed_kongs = [m for m in sample.hand.melds if m.type == "kong_concealed"]
    assert backs in range(0, 4 * len(concealed_kongs) + 1)
    assert all(t.cls == BACK for t in hand_labels if t.face_down)
    wins = [t for t in hand_labels if t.role == "win"]
    assert [t.cls for t in wins] == ([sample.hand.win_tile] if sample.hand.win_tile is not None else [])
    for t in hand_labels:
        if t.role == "meld":
            meld = sample.hand.melds[t.meld]
            assert t.cls == BACK or t.cls in meld.tiles


def test_tiles_under_a_finger_lose_their_label_or_the_covered_part(monkeypatch: pytest.MonkeyPatch) -> None:
    masks: list[np.ndarray] = []
    real = scene_module._add_fingers

    def spy(img, rng, hand):
        img, finger = real(img, rng, hand)
        masks.append(finger)
        return img, finger

    monkeypatch.setattr(scene_module, "FINGER_CHANCE", 1.0)
    monkeypatch.setattr(scene_module, "_add_fingers", spy)
    dropped = 0
    for index in range(6):
        sample = make_sample(3, index, SMALL)
        finger = masks[-1]
        dropped += sample.scene["tiles_under_finger"]
        for t in sample.tiles:
            x1, y1, x2, y2 = (int(round(v)) for v in t.box)
            # What is labelled is mostly tile: at most the corners of a box beside the finger lie under it.
            assert finger[y1:y2, x1:x2].mean() < 0.5, t
    assert dropped > 0


def test_mostly_out_of_frame_tiles_get_no_label() -> None:
    square = np.array([[-10.0, 10], [30, 10], [30, 60], [-10, 60]])  # 75% inside a 100x100 photo
    assert _visible_box(square, 100, 100) == (0.0, 10.0, 30.0, 60.0)
    assert _visible_box(square - [20, 0], 100, 100) is None  # 25% inside
    assert _visible_box(square + [200, 0], 100, 100) is None  # not in the photo at all
    assert _visible_box(np.array([[10.0, 10], [12, 10], [12, 40], [10, 40]]), 100, 100) is None  # too thin


def test_synth_works_without_shared_and_uses_art_when_present(shared: Path) -> None:
    with_art = SynthOptions(imgsz_min=256, imgsz_max=320, tileart=shared / "tileart")
    styles = {make_sample(2, i, with_art).scene["style"] for i in range(10)}
    assert any(not s.startswith("drawn:") for s in styles) and any(s.startswith("drawn:") for s in styles)
    assert all(make_sample(2, i, SMALL).scene["style"].startswith("drawn:") for i in range(4))


def test_an_art_style_draws_every_photo_from_that_set(shared: Path) -> None:
    only = SynthOptions(imgsz_min=256, imgsz_max=320, tileart=shared / "tileart", art_style="gleitz")
    assert {make_sample(2, i, only).scene["style"] for i in range(6)} == {"gleitz"}
    with pytest.raises(ValueError, match="art style 'mahjongsoul' is not one of the art sets present: fluffy_regular"):
        SynthOptions(tileart=shared / "tileart", art_style="mahjongsoul")


def _distance(a, b) -> float:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float)))


# the drawn sets' faces, fluffystuff's ivory and dark faces, plain white
FACE_COLOURS = sorted({s.face for s in scheme_pool()} | {(244, 242, 236), (40, 40, 44), (255, 255, 255)})


@pytest.mark.parametrize("face", FACE_COLOURS)
def test_a_face_down_tile_never_passes_for_a_blank_face(face) -> None:
    for back in BACK_COLOURS:
        chosen = back_unlike_face(back, face)
        assert _distance(chosen, face) >= FACE_LIKE
        assert chosen == back or _distance(back, face) < FACE_LIKE  # a back unlike the face is kept as drawn


@pytest.mark.parametrize(("back", "face", "expected"), [
    ((40, 40, 40), (40, 40, 44), BACK_COLOURS[0]),  # black back on a dark-faced set: the next colour, green
    ((40, 40, 40), (246, 242, 228), (40, 40, 40)),  # on an ivory set black stays
    ((30, 130, 70), (246, 242, 228), (30, 130, 70)),
])
def test_back_unlike_face(back, face, expected) -> None:
    assert back_unlike_face(back, face) == expected


def test_no_back_colour_is_ivory() -> None:
    ivory = [s.face for s in scheme_pool()]
    assert all(_distance(back, face) >= FACE_LIKE for back in BACK_COLOURS for face in ivory if min(face) > 150)


def test_face_down_tiles_of_a_dark_faced_set_are_not_dark(shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every photo drawn with a black back: on the dark-faced set its face-down tiles still differ from its faces."""
    drawn = scene_module.random_look
    monkeypatch.setattr(scene_module, "random_look", lambda rng: replace(drawn(rng), back=(40, 40, 40)))
    options = SynthOptions(imgsz_min=320, imgsz_max=384, tileart=shared / "tileart", art_style="fluffy_black")
    photos = 0
    for index in range(20):
        sample = make_sample(4, index, options)
        means = {True: [], False: []}
        for tile in sample.tiles:
            x1, y1, x2, y2 = (int(round(v)) for v in tile.box)
            w, h = x2 - x1, y2 - y1
            core = sample.image[y1 + h // 3 : y2 - h // 3, x1 + w // 3 : x2 - w // 3].reshape(-1, 3)
            if len(core):
                means[tile.cls == BACK].append(core.mean(axis=0))
        if means[True] and means[False]:
            photos += 1
            gap = _distance(np.mean(means[True], axis=0), np.mean(means[False], axis=0))
            assert gap > 30, (index, gap)
    assert photos >= 3


def test_an_art_style_needs_the_tile_art(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="art style 'gleitz' is not one of the art sets present: none"):
        SynthOptions(tileart=tmp_path / "tileart", art_style="gleitz")
    with pytest.raises(ValueError, match=r"present: none \(no tile art at \.\./shared/tileart\)"):
        SynthOptions(tileart=None, art_style="gleitz")  # ../shared absent


def test_bad_options_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="image size range"):
        SynthOptions(imgsz_min=800, imgsz_max=640)
    with pytest.raises(ValueError, match="layout 'tidy' is not one of any, conventional"):
        SynthOptions(layout="tidy")
    with pytest.raises(ValueError, match="--n"):
        list(write_dataset(tmp_path, 0, seed=1))
    with pytest.raises(ValueError, match="--val-fraction"):
        list(write_dataset(tmp_path, 3, seed=1, val_fraction=1.0))



def _random_layouts(count: int, spacing: Spacing, max_side: float = 1.04):
    """Many layouts (no drawing, so it is quick), over the range of tile looks and camera tilts (a tile's near side
    is drawn up to 0.8 * 1.3 tile deep): (placements, geometry, hand) each."""
    for seed in range(count):
        rng = np.random.default_rng([seed, 3])
        spec = random_hand(rng)
        g = Geometry(aspect=float(rng.uniform(1.28, 1.45)), side=float(rng.uniform(0.05, max_side)),
                     lift=float(rng.uniform(0, 0.8)), stand_top=0.6, stand_face=float(rng.uniform(0.6, 1.7)))
        placements = layout_hand(spec, rng, g, standing=bool(seed % 3 == 0), spacing=spacing)
        yield add_extras(placements, spec, rng, g, spacing), g, spec


@pytest.mark.parametrize("spacing", [LOOSE, CONVENTIONAL])
def test_layouts_never_overlap_hand_tiles(spacing: Spacing) -> None:
    """Hand tiles and the extras never overlap a hand tile."""
    for placements, g, spec in _random_layouts(400, spacing):
        hand = [p for p in placements if p.role in ("concealed", "win", "meld")]
        assert len(hand) == len(spec.concealed) + sum(len(m.tiles) for m in spec.melds) + (spec.win_tile is not None)
        polys = np.stack([footprint(p, g) for p in placements])
        lo, hi = polys.min(axis=1), polys.max(axis=1)
        n_hand = len(hand)  # hand tiles come first
        over_x = np.minimum(hi[:, None, 0], hi[None, :n_hand, 0]) - np.maximum(lo[:, None, 0], lo[None, :n_hand, 0])
        over_y = np.minimum(hi[:, None, 1], hi[None, :n_hand, 1]) - np.maximum(lo[:, None, 1], lo[None, :n_hand, 1])
        # Touching rows may share the far tile's hidden side; a real overlap is deeper than that.
        clash = (over_x > 1e-6) & (over_y > g.side + 1e-6)
        np.fill_diagonal(clash[:n_hand], False)
        assert not clash.any(), np.argwhere(clash)[:3]


def test_conventional_layouts_keep_the_convention_and_loose_ones_do_not_always() -> None:
    loose = Counter(b for placements, g, _ in _random_layouts(400, LOOSE)
                    for b in convention_breaks(layout_facts(placements, g)))
    assert set(loose) == {"win_not_set_apart", "meld_too_close", "stray_near_hand"}
    for placements, g, spec in _random_layouts(600, CONVENTIONAL):
        facts = layout_facts(placements, g)
        assert convention_breaks(facts) == [], (spec, facts)
        assert spec.win_tile is None or facts["win_gap"] >= 0.45


@pytest.mark.parametrize(("spacing", "clear"), [(LOOSE, False), (CONVENTIONAL, True)])
def test_table_in_line_with_the_row_is_kept_clear_in_conventional_layouts(spacing: Spacing, clear: bool) -> None:
    """A lone tile in line with the row, beyond either end, reads as the winning tile set apart."""
    crossing = 0
    for placements, g, _ in _random_layouts(400, spacing):
        bx0, by0, bx1, by1 = in_line_with_row(placements, g, 3.0)
        for p in placements:
            if p.role in ("discard", "clutter"):
                poly = footprint(p, g)
                crossing += bool(poly[:, 0].max() > bx0 and poly[:, 0].min() < bx1
                                 and poly[:, 1].max() > by0 and poly[:, 1].min() < by1)
    assert (crossing == 0) == clear, crossing


@pytest.mark.parametrize("index", range(6))
def test_conventional_photos_keep_the_convention(index: int) -> None:
    sample = make_sample(2026, index, replace(SMALL, layout="conventional"))
    assert convention_breaks(sample.scene) == [], sample.scene


def test_default_stream_is_unchanged_by_the_layout_option() -> None:
    """The default stream (and so the training data) does not depend on the layout option. The labels digest was
    retaken when the pool of drawn tile sets grew from 40 to 96 (it names each photo's set) and when print on the
    table and two more cloth patterns came (the scene counts the print; a cloth draws its pattern differently); the
    layouts are as they were before the option existed."""
    labels = hashlib.sha256()
    for index in range(6):
        sample = make_sample(2026, index, SMALL)
        labels.update(json.dumps([[t.to_json() for t in sample.tiles], sample.scene], sort_keys=True).encode())
    assert labels.hexdigest() == "7dc803ae8b8d4118f4c49cc7f1919ad8ecb9e7124797b2f2a57fb42353371d74"
    layouts = hashlib.sha256()
    for placements, _, _ in _random_layouts(300, LOOSE, max_side=0.9):
        layouts.update(repr([astuple(p) for p in placements]).encode())
    assert layouts.hexdigest() == "ce7d73cd4ba52a358238eec87cba82390627fd06a4706d422ee8c14112dc0f4f"


def test_cli_writes_a_small_set_and_refuses_bad_sizes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mjsnap.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["synth", "--n", "3", "--out", str(tmp_path), "--seed", "2", "--imgsz-max", "256",
                                 "--val-fraction", "0.34", "--no-art", "--layout", "conventional"])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "images" / "train").glob("*.jpg"))) == 2
    assert len(list((tmp_path / "layouts" / "val").glob("*.json"))) == 1
    layout = json.loads(next((tmp_path / "layouts" / "val").glob("*.json")).read_text())
    assert max(layout["width"], layout["height"]) <= 256 and layout["scene"]["style"].startswith("drawn:")
    assert convention_breaks(layout["scene"]) == []
    bad = runner.invoke(app, ["synth", "--n", "1", "--out", str(tmp_path), "--imgsz-min", "900", "--imgsz-max", "800"])
    assert bad.exit_code == 2 and "image size range" in bad.output
    bad = runner.invoke(app, ["synth", "--n", "1", "--out", str(tmp_path), "--layout", "tidy"])
    assert bad.exit_code == 2 and "layout 'tidy'" in bad.output
    bad = runner.invoke(app, ["synth", "--n", "1", "--out", str(tmp_path), "--no-art", "--art-style", "gleitz"])
    assert bad.exit_code == 2 and "--art-style draws from the tile art that --no-art leaves out" in bad.output


@pytest.mark.parametrize(("out", "message"), [("afile", "afile is a file, not a folder"),
                                              ("afile/set", "cannot be made: {tmp}/afile is a file")])
def test_cli_refuses_an_output_folder_it_cannot_make(tmp_path: Path, out: str, message: str) -> None:
    from typer.testing import CliRunner

    from mjsnap.cli import app

    (tmp_path / "afile").write_text("kept")
    result = CliRunner().invoke(app, ["synth", "--n", "2", "--seed", "1", "--out", str(tmp_path / out)])
    assert result.exit_code == 2 and "error: --out: " in result.output
    assert message.format(tmp=tmp_path) in result.output and "Traceback" not in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["afile"] and (tmp_path / "afile").read_text() == "kept"


def test_print_on_the_table_changes_no_tile_of_the_photo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Print draws from its own stream: the same photo with and without it has the same tiles and labels, even where
    fingers (drawn after the table, from the photo's stream) cover some."""
    monkeypatch.setattr(scene_module, "FINGER_CHANCE", 1.0)
    samples = {}
    for chance in (0.0, 1.0):
        monkeypatch.setattr(printed, "PRINT_CHANCE", chance)
        samples[chance] = [make_sample(7, index, SMALL) for index in range(3)]
    for bare, with_print in zip(samples[0.0], samples[1.0], strict=True):
        assert [t.to_json() for t in bare.tiles] == [t.to_json() for t in with_print.tiles]
        assert bare.scene["printed_items"] == 0 and with_print.scene["printed_items"] >= 1
        assert not np.array_equal(bare.image, with_print.image)


def test_a_share_of_photos_has_print_beside_the_hand() -> None:
    counts = [make_sample(8, index, SMALL).scene["printed_items"] for index in range(30)]
    assert 3 <= sum(c > 0 for c in counts) <= 16  # PRINT_CHANCE 0.3 of 30: 9 expected
    assert max(counts) <= printed.MAX_ITEMS


@pytest.mark.parametrize("item", sorted(set(printed.ITEMS), key=lambda f: f.__name__))
@pytest.mark.parametrize("seed", range(4))
def test_printed_things_carry_print(item, seed: int) -> None:
    """Each kind of printed thing has ink on it: pixels far from its own commonest colour, but not most of it."""
    rgba = np.asarray(item(np.random.default_rng(seed), 24)).astype(np.int32)
    solid = rgba[..., 3] == 255
    colours, counts = np.unique(rgba[solid][:, :3], axis=0, return_counts=True)
    far = np.abs(rgba[solid][:, :3] - colours[counts.argmax()]).sum(axis=1) > 120
    assert 0.01 < far.mean() < 0.5


def test_print_is_laid_inside_the_photo_and_under_a_shadow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printed, "PRINT_CHANCE", 1.0)
    table = np.broadcast_to(MAGENTA, (300, 400, 3)).copy()
    count = printed.add_printed_matter(table, np.random.default_rng(3))
    assert 1 <= count <= printed.MAX_ITEMS
    assert table.shape == (300, 400, 3) and 0 <= table.min() and table.max() <= 255
    changed = np.abs(table - MAGENTA).sum(axis=2) > 1
    assert 0.005 < changed.mean() < 0.9
    monkeypatch.setattr(printed, "PRINT_CHANCE", 0.0)
    bare = np.broadcast_to(MAGENTA, (300, 400, 3)).copy()
    assert printed.add_printed_matter(bare, np.random.default_rng(3)) == 0 and (bare == MAGENTA).all()
