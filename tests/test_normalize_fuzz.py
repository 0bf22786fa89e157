"""Hypothesis properties of the normalizer (vision.normalize.read_hand) over detections of every shape: none, a few,
a hundred; loose boxes (tiny, elongated, at the edges, overlapping, duplicated) and hands laid out by the convention
(tests/normalize_layouts.py), turned, tilted and jittered, with stray boxes and classifier probabilities.

Properties: it never raises; every detection gets one role and the hand is made of the detections' tiles; the result
does not depend on the order of the detections, nor on running it twice, nor on the photo's scale. The minimal cases
the properties found are kept below as plain regression tests."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from normalize_layouts import detections, photograph, tile_polygons
from scoring.tiles import BACK, CLASS_NAMES, FLOWER, N_KINDS, TILE_NAMES, format_compact, kind_of
from vision.detections import N_CLASSES, Detections
from vision.normalize import ReadHand, ReadOptions, read_hand
from vision.normalize.reread import WARNING_CODES as REREAD_CODES

# derandomize: CI runs the same examples every time; the examples are few so the file stays well under a minute.
PROFILE = settings(max_examples=150, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ROLES = {"concealed", "win", "meld", "ignored"}
IMAGE_SIZES = [(48, 32), (320, 240), (1000, 800), (4032, 3024)]

# --- strategies ------------------------------------------------------------------------------------------------
confidences = st.sampled_from([0.2, 0.5, 0.9, 0.95]) | st.floats(0.0, 1.0, width=32)
classes = st.integers(0, N_CLASSES - 1)


@st.composite
def loose_box(draw, image_size: tuple[int, int]) -> tuple[float, float, float, float]:
    """One box anywhere in the image: tile-like, tiny (1-2 px), very elongated, empty or cut by an edge."""
    width, height = image_size
    shape = draw(st.sampled_from(["tile", "tiny", "long", "flat", "edge", "empty"]))
    coord = st.integers if draw(st.booleans()) else (lambda lo, hi: st.floats(lo, hi, width=32))
    x1 = draw(coord(0, width - 1))
    y1 = draw(coord(0, height - 1))
    if shape == "tile":
        w, h = draw(coord(4, 120)), draw(coord(4, 160))
    elif shape == "tiny":
        w, h = draw(coord(1, 2)), draw(coord(1, 2))
    elif shape == "long":
        w, h = draw(coord(1, 3)), draw(coord(100, 3000))
    elif shape == "flat":
        w, h = draw(coord(100, 3000)), draw(coord(1, 3))
    elif shape == "empty":
        w, h = 0, draw(coord(0, 50))
    else:  # the frame cuts it: it touches the left/top or right/bottom edge
        w, h = draw(coord(4, 120)), draw(coord(4, 160))
        if draw(st.booleans()):
            x1, y1 = (0, y1) if draw(st.booleans()) else (x1, 0)
        else:
            x1, y1 = (width - w, y1) if draw(st.booleans()) else (x1, height - h)
    x1, y1 = max(0.0, float(x1)), max(0.0, float(y1))
    return x1, y1, min(float(width), x1 + float(w)), min(float(height), y1 + float(h))


@st.composite
def loose_detections(draw) -> tuple[Detections, tuple[int, int]]:
    """0-100 boxes of random classes and confidences, some of them copies (same box, maybe another class) or
    touching neighbours of others."""
    image_size = draw(st.sampled_from(IMAGE_SIZES))
    n = draw(st.sampled_from([0, 1, 2, 3, 5, 14, 40, 100]))
    boxes = draw(st.lists(loose_box(image_size), min_size=n, max_size=n))
    for _ in range(draw(st.integers(0, 5)) if boxes else 0):
        x1, y1, x2, y2 = draw(st.sampled_from(boxes))
        if draw(st.booleans()):
            boxes.append((x1, y1, x2, y2))  # the same tile boxed twice
        else:
            boxes.append((x2, y1, min(float(image_size[0]), 2 * x2 - x1), y2))  # its touching neighbour
    n = len(boxes)
    conf = draw(st.lists(confidences, min_size=n, max_size=n))
    cls = draw(st.lists(st.sampled_from([BACK]) | classes, min_size=n, max_size=n))
    return Detections(np.array(boxes, dtype=np.float64).reshape(-1, 4), conf, cls), image_size


MELD_SHAPES = ["pung", "chow", "kong", "hidden_kong", "backs"]


@st.composite
def meld_tokens(draw, tidy: bool) -> list[str]:
    """One meld's row tokens (normalize_layouts notation); untidy: maybe 3-4 random tiles that make no meld."""
    shape = draw(st.sampled_from(MELD_SHAPES if tidy else MELD_SHAPES + ["random3", "random4"]))
    kind = draw(st.integers(0, N_KINDS - 1))
    name = TILE_NAMES[kind]
    if shape == "pung":
        tokens = [name] * 3
    elif shape == "chow":
        start = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
        tokens = [TILE_NAMES[start + i] for i in range(3)]
    elif shape == "kong":
        tokens = [name] * 4
    elif shape == "hidden_kong":
        tokens = ["#", name, name, "#"] if draw(st.booleans()) else [name, "#", "#", name]
    elif shape == "backs":
        tokens = ["#"] * 4
    else:
        size = 3 if shape == "random3" else 4
        tokens = [draw(st.sampled_from(TILE_NAMES + ("#",))) for _ in range(size)]
    if len(tokens) <= 4 and draw(st.booleans()):  # the claimed tile lies sideways
        i = draw(st.integers(0, len(tokens) - 1))
        if tokens[i] != "#":
            tokens[i] = "^" + tokens[i]
    return tokens


@st.composite
def laid_out_hand(draw, jitters: tuple[float, ...] = (0.0, 0.5, 2.0)) -> tuple[Detections, tuple[int, int]]:
    """A hand laid out in rows (tests/normalize_layouts.py), photographed turned and tilted, cut by the frame when
    it does not fit. Tidy: by the convention, every tile there and sure; untidy: any count, backs and tiles knocked
    askew in the row, unsure boxes, stray boxes (flowers among them). Maybe a row of discards beyond, maybe class
    probabilities."""
    tidy = draw(st.booleans())
    n_melds = draw(st.integers(0, 4))
    melds = [draw(meld_tokens(tidy)) for _ in range(n_melds)]
    n_concealed = 14 - 3 * n_melds if tidy else draw(st.integers(0, 16))
    faces = st.sampled_from(TILE_NAMES if tidy else TILE_NAMES + ("#", "~1m"))
    concealed = [draw(faces) for _ in range(n_concealed)]
    if len(concealed) > 1 and draw(st.booleans()):
        concealed.insert(len(concealed) - 1, "|")  # the winning tile set apart
    above = [tok for meld in melds[:2] for tok in meld + ["|"]]
    beside = [tok for meld in melds[2:] for tok in ["|"] + meld]
    rows = [r for r in (" ".join(above), " ".join(concealed + beside)) if r.strip(" |")]
    if not rows:
        rows = ["1m"]
    if draw(st.booleans()):
        rows = [" ".join(draw(st.sampled_from(TILE_NAMES)) for _ in range(draw(st.integers(1, 8))))] + rows
    corners, cls = tile_polygons(rows, gap=draw(st.sampled_from([0.0, 0.3, 0.6, 1.5])),
                                 row_gap=draw(st.sampled_from([0.0, 0.8, 3.0])))
    boxes = photograph(
        corners,
        rotate_deg=draw(st.floats(-180, 180)),
        tilt_deg=draw(st.floats(0, 50)),
        jitter=draw(st.sampled_from(jitters)),
        seed=draw(st.integers(0, 100)),
    )
    scale = draw(st.sampled_from([0.05, 0.3, 1.0, 3.0]))
    image_size = (max(1, round(1000 * scale)), max(1, round(800 * scale)))
    width, height = image_size
    boxes = np.clip(boxes * scale, 0, [width, height, width, height])  # the frame cuts what does not fit
    n = len(boxes)
    conf = np.array(draw(st.lists(st.sampled_from([0.95, 0.9, 0.6]) if tidy else confidences, min_size=n, max_size=n)))
    dets = Detections(boxes, conf, cls)
    strays = [] if tidy else draw(st.lists(loose_box(image_size), max_size=draw(st.sampled_from([0, 2, 10]))))
    if strays:
        k = len(strays)
        dets = concat(dets, Detections(np.array(strays), draw(st.lists(confidences, min_size=k, max_size=k)),
                                       draw(st.lists(classes, min_size=k, max_size=k))))
    if draw(st.booleans()):
        dets = with_probs(dets, draw(st.integers(0, 2**32 - 1)))
    return dets, image_size


@st.composite
def all_backs(draw) -> tuple[Detections, tuple[int, int]]:
    """Face-down tiles only: a wall, four-back kongs, a row of backs."""
    rows = draw(st.lists(st.sampled_from(["# # # #", "# # # # | # # # #", "# " * 13 + "#", "# # # # # # # # #"]),
                         min_size=1, max_size=3))
    corners, cls = tile_polygons(rows, row_gap=draw(st.sampled_from([-0.6, 0.0, 0.8])))
    boxes = photograph(corners, rotate_deg=draw(st.floats(-180, 180)), tilt_deg=draw(st.floats(0, 50)))
    return Detections(boxes, np.full(len(cls), 0.9), cls), (1000, 800)


detection_sets = st.one_of(loose_detections(), laid_out_hand(), all_backs())


def concat(a: Detections, b: Detections) -> Detections:
    return Detections(np.concatenate([a.xyxy, b.xyxy]), np.concatenate([a.confidence, b.confidence]),
                      np.concatenate([a.class_id, b.class_id]))


def with_probs(dets: Detections, seed: int) -> Detections:
    """Classifier probabilities as a two-stage model gives them: most on the detected class, the rest on a few
    others (the runner-up faces a re-read may choose)."""
    rng = np.random.default_rng(seed)
    probs = np.zeros((len(dets), N_CLASSES))
    for row, cls in zip(probs, dets.class_id):
        others = rng.choice(N_CLASSES, size=3, replace=False)
        row[others] = rng.dirichlet(np.ones(3)) * rng.uniform(0.0, 0.6)
        row[cls] += 1.0 - row.sum()
    return Detections(dets.xyxy, dets.confidence, dets.class_id, np.clip(probs, 0.0, 1.0))


# --- what a result is, independent of input order and scale --------------------------------------------------------
def by_content(dets: Detections) -> list[tuple]:
    """Each detection named by its content: detections equal in every field are interchangeable."""
    probs = [()] * len(dets) if dets.class_probs is None else [tuple(row) for row in dets.class_probs.tolist()]
    return list(zip(map(tuple, dets.xyxy.tolist()), dets.confidence.tolist(), dets.class_id.tolist(), probs))


def outcome(hand: ReadHand, names: list) -> tuple:
    """The hand, each detection's role and the warnings, with the detections called by ``names``."""
    roles = sorted((names[i], t.cls, t.group, -1 if t.meld is None else t.meld, -1 if t.row is None else t.row,
                    t.sideways, round(t.conf, 5)) for i, t in enumerate(hand.tiles))
    warnings = sorted((w.code, tuple(sorted(names[i] for i in w.tiles))) for w in hand.warnings)
    melds = [(m.type.value, m.tiles) for m in hand.melds]
    return (list(hand.concealed), melds, hand.win_tile, hand.unresolved_kongs), roles, warnings


def onto_the_edge(dets: Detections, image_size: tuple[int, int], within: float = 2.0) -> Detections:
    """Box sides within ``within`` pixels of the photo's edge moved onto it. A box is cut by the frame when it comes
    within one pixel of the edge (geometry.cut_by_frame): a pixel, the detector's precision, not a share of the photo,
    so a box 1.5 px off the edge is cut at half the scale and not at this one. Sides on the edge stay on it at every
    scale, and sides further than 2 px stay off it down to half the scale (the smallest factor tried)."""
    width, height = image_size
    edges = np.array([0.0, 0.0, width, height])
    near = np.abs(dets.xyxy - edges) <= within
    xyxy = np.where(near, edges, dets.xyxy)
    return Detections(xyxy, dets.confidence, dets.class_id, dets.class_probs)


# --- properties ---------------------------------------------------------------------------------------------------
@PROFILE
@given(detection_sets)
def test_read_hand_never_raises_and_accounts_for_every_detection(case):
    dets, image_size = case
    check_accounted_for(read_hand(dets, image_size), dets)


def check_accounted_for(hand: ReadHand, dets: Detections) -> None:
    assert len(hand.tiles) == len(dets)
    assert {t.group for t in hand.tiles} <= ROLES
    for i, tile in enumerate(hand.tiles):  # each tile is its detection
        assert tile.box == tuple(float(v) for v in dets.xyxy[i])
        assert tile.detected_cls == CLASS_NAMES[dets.class_id[i]]
    for i in range(len(dets)):  # what the reader drops first is never in the hand
        if dets.confidence[i] < ReadOptions().min_confidence or dets.class_id[i] == FLOWER:
            assert hand.tiles[i].group == "ignored"
    assert all(0 <= i < len(dets) for w in hand.warnings for i in w.tiles)
    reread = {i for w in hand.warnings if w.code in REREAD_CODES for i in w.tiles}
    for i, tile in enumerate(hand.tiles):  # a tile read as another class says why
        if tile.cls != tile.detected_cls:
            back_or_white = tile.group == "meld" and {tile.cls, tile.detected_cls} == {"P", "back"}  # by position
            assert back_or_white or i in reread, (i, tile)
    # the hand is made of its tiles, as read
    assert Counter(kind_of(t.cls) for t in hand.tiles if t.group == "concealed") == Counter(hand.concealed)
    win = [kind_of(t.cls) for t in hand.tiles if t.group == "win"]
    assert win == ([] if hand.win_tile is None else [hand.win_tile])
    for index, meld in enumerate(hand.melds):
        members = [t for t in hand.tiles if t.group == "meld" and t.meld == index]
        assert len(members) == len(meld.tiles)
        assert not Counter(kind_of(t.cls) for t in members if t.cls != "back") - Counter(meld.tiles)
    unnamed = [t for t in hand.tiles if t.group == "meld" and t.meld is None]  # four-back kongs of unknown kind
    assert len(unnamed) == 4 * hand.unresolved_kongs and all(t.cls == "back" for t in unnamed)
    assert all(t.meld is None for t in hand.tiles if t.group != "meld")
    # every tile left out is named by a warning saying why
    named = {i for w in hand.warnings for i in w.tiles}
    assert {i for i, t in enumerate(hand.tiles) if t.group == "ignored"} <= named
    hand.to_json()


@PROFILE
@given(detection_sets, st.data())
def test_order_of_the_detections_does_not_matter(case, data):
    dets, image_size = case
    shuffled = dets[np.array(data.draw(st.permutations(range(len(dets)))), dtype=np.int64)]
    assert same_read(dets, shuffled, image_size)


def same_read(dets: Detections, shuffled: Detections, image_size: tuple[int, int]) -> bool:
    return outcome(read_hand(shuffled, image_size), by_content(shuffled)) == outcome(read_hand(dets, image_size),
                                                                                     by_content(dets))


@PROFILE
@given(detection_sets)
def test_reading_twice_gives_the_same_result(case):
    dets, image_size = case
    assert read_hand(dets, image_size).to_json() == read_hand(dets, image_size).to_json()


@PROFILE
@given(detection_sets, st.sampled_from([0.5, 2.0, 4.0]))
def test_the_photo_scale_does_not_matter(case, factor):
    # Powers of two scale float32 boxes exactly, so any difference is a threshold in pixels, not rounding.
    dets, image_size = case
    assert same_at_scale(dets, image_size, factor)


@PROFILE
@given(laid_out_hand(jitters=(0.5, 2.0)), st.sampled_from([0.75, 1.5, 3.0, 10.0]))
def test_the_scale_of_a_photographed_hand_does_not_matter(case, factor):
    # Other factors round the boxes (float32) by 1e-7 of their size, which tips exact ties between two readings
    # equally good but for that (two tiles or rows of one size, loose boxes on a grid): genuinely ambiguous input,
    # so only photographs with pixel noise, where no two tiles are exactly alike, are tried.
    dets, image_size = case
    assert same_at_scale(dets, image_size, factor)


def same_at_scale(dets: Detections, image_size: tuple[int, int], factor: float) -> bool:
    dets = onto_the_edge(dets, image_size)
    # A box less than a pixel across has no size to scale: the reader floors sides at 1e-3 px and areas at 1e-9 px²
    # (layout.build_layout, cleanup) so that empty boxes still divide.
    dets = dets[np.all(dets.sizes >= 1.0, axis=1)]
    scaled = Detections(dets.xyxy * factor, dets.confidence, dets.class_id, dets.class_probs)
    scaled_size = (image_size[0] * factor, image_size[1] * factor)
    same = list(range(len(dets)))  # detection i is detection i at either scale
    return outcome(read_hand(scaled, scaled_size), same) == outcome(read_hand(dets, image_size), same)


@pytest.mark.parametrize(
    "boxes, conf, cls, message",
    [
        ([[0, 0, 10]], [0.9], [0], "reshape"),  # not four coordinates (numpy's message)
        ([[10, 0, 0, 10]], [0.9], [0], "x2 >= x1"),
        ([[0, 0, 10, 10]], [0.9, 0.8], [0], "1 boxes, 2 confidences"),
        ([[0, 0, 10, 10]], [0.9], [N_CLASSES], "class ids"),
        ([[0, 0, 10, 10]], [0.9], [-1], "class ids"),
    ],
)
def test_invalid_detections_are_refused_at_construction(boxes, conf, cls, message):
    with pytest.raises(ValueError, match=message):
        Detections(np.array(boxes, dtype=float), conf, cls)


@pytest.mark.parametrize(
    "box, conf, message",
    [
        ([np.nan, 0, 10, 10], 0.9, "finite"),  # was read into the hand as a tile
        ([0, 0, np.inf, 10], 0.9, "finite"),
        ([0, 0, 10, 10], np.nan, "finite"),
        ([0, 0, 10, 10], 1.5, r"\[0, 1\]"),
        ([0, 0, 10, 10], -0.1, r"\[0, 1\]"),
    ],
)
def test_non_finite_detections_are_refused_at_construction(box, conf, message):
    with pytest.raises(ValueError, match=message):
        Detections(np.array([box]), [conf], [0])


def test_non_finite_class_probabilities_are_refused():
    probs = np.full((1, N_CLASSES), np.nan)
    with pytest.raises(ValueError, match="class_probs"):
        Detections(np.array([[0, 0, 10, 10]]), [0.9], [0], probs)


# --- regressions: the minimal cases the properties found -------------------------------------------------------------
@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "boxes",
    [
        [[50, 50, 50, 50], [50, 50, 50, 50]],  # two empty boxes at one point
        [[0, 49, 100, 51], [49, 0, 51, 100]],  # two thin boxes crossing: one centre
    ],
)
def test_tiles_with_one_centre_do_not_stall_the_row_fit(boxes):
    # rows.fit_rows took the 0/0 slope of the pair for a line, which held no tile and never left the pool
    dets = Detections(np.array(boxes, dtype=float), [0.9, 0.9], [kind_of("1m"), kind_of("2m")])
    check_accounted_for(read_hand(dets, (100, 100)), dets)


@pytest.mark.parametrize(
    "boxes, conf, names",
    [
        # one tile boxed twice, as sure of either face: the first given was kept (cleanup)
        ([[34, 19, 36, 32], [34, 19, 36, 32]], [0.9, 0.9], ["6p", "2s"]),
        # two empty boxes at one point: each a row of its own, numbered in the order given
        ([[48, 10.85, 48, 32], [48, 10.85, 48, 32]], [0.95, 0.9], ["back", "7p"]),
    ],
)
def test_the_same_boxes_given_in_another_order_read_the_same(boxes, conf, names):
    dets = Detections(np.array(boxes, dtype=float), conf, [CLASS_NAMES.index(n) for n in names])
    assert same_read(dets, dets[::-1], (48, 32))


@pytest.mark.parametrize("rise", [-0.5, 0.5])
def test_rows_on_one_line_are_numbered_left_to_right(rise):
    # Two tiles too far apart to be one row: the frame runs along the line through both, so rounding alone made one
    # higher, and that numbered their rows (layout).
    boxes = np.array([[100, 100, 130, 140], [500, 100 + rise, 530, 140 + rise]])
    hand = read_hand(Detections(boxes, [0.9, 0.9], [kind_of("1m"), kind_of("9m")]), (1000, 800))
    assert [t.row for t in hand.tiles] == [0, 1]


@pytest.mark.parametrize("camera", [{"rotate_deg": 20, "tilt_deg": 35}, {"rotate_deg": 25, "tilt_deg": 40}])
def test_melds_on_one_line_parted_by_a_wide_gap_are_numbered_left_to_right(camera):
    # The two melds lie on one line, further apart than a row reaches: perspective left the right one a little
    # higher in the frame, and it was numbered first (meld 0 of --meld-type, --kong-kind).
    rows = ["^2p 2p 2p " + "| " * 10 + "4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m | 9p"]
    hand = read_hand(detections(rows, **camera), (1000, 800))
    assert [(m.type.value, format_compact(m.tiles)) for m in hand.melds] == [("pung", "222p"), ("chow", "456s")]
