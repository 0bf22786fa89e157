"""Win shapes: expected outcomes per shape (tricky ones included), readings, errors, table and properties."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hand import Hand, HandError, Meld, MeldType
from scoring.shapes import (
    ALL_SHAPES,
    GREATER_HONORS_AND_KNITTED,
    HONORS_AND_KNITTED,
    KNITTED_SETS,
    KNITTED_STRAIGHT,
    KNITTED_STRAIGHT_IN_HK,
    PLAIN,
    SEVEN_PAIRS,
    SHAPE_ORDER,
    THIRTEEN_ORPHANS,
    Block,
    find_shapes,
    is_complete,
)
from scoring.shapes.samples import SAMPLE_KINDS, random_complete, spoil
from scoring.shapes.tables import SUIT_READINGS
from scoring.tiles import parse_tiles


def meld(type_: str, tiles: str) -> Meld:
    return Meld.parse(type_, tiles)


H = HONORS_AND_KNITTED
G = GREATER_HONORS_AND_KNITTED
KS = KNITTED_STRAIGHT
KSH = KNITTED_STRAIGHT_IN_HK

SHAPE_CASES: list[tuple[str, str, list[tuple[str, str]], tuple[str, ...]]] = [
    # (id, closed tiles incl. the winning tile, melds, expected shapes)
    ("plain", "123m456m789p234s55z", [], (PLAIN,)),
    ("plain-honour-pungs", "111z222z333z555z77z", [], (PLAIN,)),
    ("plain-concealed-four", "123m456m7777m89m55s", [], (PLAIN,)),
    ("plain-4-pungs-melded", "55m", [("pung", "111m"), ("pung", "999m"), ("pung", "222s"), ("pung", "444s")], (PLAIN,)),
    ("plain-kongs-melded", "55m", [("kong_concealed", "1111m"), ("kong_exposed", "9999m"), ("kong_added", "2222s"),
                                   ("chow", "345s")], (PLAIN,)),
    ("plain-one-kong", "123m456p789p55z", [("kong_concealed", "2222s")], (PLAIN,)),
    ("plain-and-seven-pairs", "112233m445566p77s", [], (PLAIN, SEVEN_PAIRS)),
    ("plain-and-seven-pairs-one-suit", "11223344556677p", [], (PLAIN, SEVEN_PAIRS)),
    ("plain-and-seven-pairs-with-quad", "1111m22m33m55s66s77s", [], (PLAIN, SEVEN_PAIRS)),
    ("honours-never-chow", "123z456m789p234s55z", [], ()),
    ("honour-pairs-never-chow", "112233z456m789p55s", [], ()),
    ("honour-seven-pairs", "11223344556677z", [], (SEVEN_PAIRS,)),
    ("one-tile-off", "123m456m789p235s55z", [], ()),
    ("seven-pairs", "11m22m55p77p99s11z55z", [], (SEVEN_PAIRS,)),
    ("seven-pairs-one-quad", "1111m33m55p77p99s55z", [], (SEVEN_PAIRS,)),
    ("seven-pairs-two-quads", "1111m5555m22p33p44p", [], (SEVEN_PAIRS,)),
    ("six-pairs-and-a-pung", "111m22m55p77p99s11z5z", [], ()),
    ("thirteen-orphans", "19m19p19s12345677z", [], (THIRTEEN_ORPHANS,)),
    ("thirteen-orphans-dup-terminal", "119m19p19s1234567z", [], (THIRTEEN_ORPHANS,)),
    ("thirteen-orphans-missing-white", "119m19p19s1234566z", [], ()),
    ("thirteen-orphans-with-a-two", "129m19p19s1234567z", [], ()),
    ("honors-and-knitted-8-suited", "147m25p369s123456z", [], (H,)),
    ("honors-and-knitted-7-suited", "147m25p36s1234567z", [], (H, G)),
    ("honors-and-knitted-9-suited", "147m258p369s12345z", [], (H, KSH)),
    ("honors-and-knitted-other-set", "369m147p258s13457z", [], (H, KSH)),
    ("hk-duplicate-honour", "147m258p369s11234z", [], ()),
    ("hk-duplicate-suit-tile", "1147m25p36s123456z", [], ()),
    ("hk-misplaced-147-twice", "147m147p369s12345z", [], ()),
    ("hk-two-sets-mixed", "147m258p36s9m12345z", [], ()),
    ("hk-suit-tile-off-set", "1479m258p36s12345z", [], ()),
    ("knitted-straight", "147m258p369s789m55z", [], (KS,)),
    ("knitted-straight-reused-tile", "1123m47m258p369s55z", [], (KS,)),
    ("knitted-straight-reused-in-pair", "111m47m258p369s456s", [], (KS,)),
    ("knitted-straight-pung", "147m258p369s111z5s5s", [], (KS,)),
    ("knitted-straight-chow-meld", "147m258p369s99m", [("chow", "567p")], (KS,)),
    ("knitted-straight-kong-meld", "147m258p369s99m", [("kong_concealed", "1111z")], (KS,)),
    ("knitted-straight-two-melds", "147m258p36s", [("pung", "111z"), ("chow", "789m")], ()),
    ("knitted-tile-only-in-meld", "14m258p369s55z1s", [("chow", "789m")], ()),
    ("knitted-straight-no-set", "147m258p369s111z23z", [], ()),
    ("knitted-straight-misplaced", "147m147p369s789m55z", [], ()),
    ("knitted-straight-honours-rest", "147m258p369s112z55z", [], ()),
]


@pytest.mark.parametrize(("closed", "melds", "expected"), [c[1:] for c in SHAPE_CASES], ids=[c[0] for c in SHAPE_CASES])
def test_shapes(closed: str, melds: list[tuple[str, str]], expected: tuple[str, ...]) -> None:
    tiles = parse_tiles(closed)
    declared = [meld(t, m) for t, m in melds]
    report = find_shapes(tiles, declared)
    assert report.shapes == expected
    assert is_complete(tiles, declared) == bool(expected)
    for shape in ALL_SHAPES:
        assert report.holds(shape) == (shape in expected)
        assert is_complete(tiles, declared, frozenset({shape})) == (shape in expected)
    assert bool(report.plain) == (PLAIN in expected)
    assert bool(report.knitted_straight) == (KS in expected)


@pytest.mark.parametrize(
    ("closed", "quads"),
    [("11m22m55p77p99s11z55z", 0), ("1111m33m55p77p99s55z", 1), ("1111m5555m22p33p44p", 2), ("123m456m789p234s55z", 0)],
)
def test_seven_pairs_quads(closed: str, quads: int) -> None:
    assert find_shapes(parse_tiles(closed)).seven_pairs_quads == quads


def blocks_text(blocks: tuple[Block, ...]) -> list[tuple[str, tuple[int, ...]]]:
    return sorted((b.type, b.tiles) for b in blocks)


@pytest.mark.parametrize(
    ("closed", "readings"),
    [
        # 111222333m: three pungs or three chows
        ("111222333m456p77s", [("7s", ["111m", "222m", "333m", "456p"]), ("7s", ["123m", "123m", "123m", "456p"])]),
        # nine gates + 5m: one reading
        ("11123455678999m", [("55m", ["111m", "234m", "678m", "999m"])]),
        # the pair at either end
        ("22334455m456p789s", [("22m", ["345m", "345m", "456p", "789s"]), ("55m", ["234m", "234m", "456p", "789s"])]),
        ("112233m445566p77s", [("7s", ["123m", "123m", "456p", "456p"])]),
    ],
)
def test_plain_readings(closed: str, readings: list[tuple[str, list[str]]]) -> None:
    report = find_shapes(parse_tiles(closed))
    got = sorted((d.pair, blocks_text(d.blocks)) for d in report.plain)
    want = sorted(
        (parse_tiles(pair)[0], sorted(("chow" if len(set(parse_tiles(b))) == 3 else "pung", tuple(parse_tiles(b)))
                                      for b in blocks))
        for pair, blocks in readings
    )
    assert got == want


def test_plain_reading_keeps_melds_as_fixed_blocks() -> None:
    kong = meld("kong_concealed", "2222s")
    chow = meld("chow", "789m")
    report = find_shapes(parse_tiles("123m456p55z"), [kong, chow])
    (reading,) = report.plain
    assert reading.pair == parse_tiles("5z")[0]
    assert [b.meld for b in reading.blocks] == [None, None, kong, chow]
    assert [b.type for b in reading.blocks] == ["chow", "chow", "kong", "chow"]
    assert reading.blocks[2].tiles == tuple(parse_tiles("2222s"))


def test_knitted_straight_reading_reuses_a_knitted_tile() -> None:
    report = find_shapes(parse_tiles("1123m47m258p369s55z"))
    (reading,) = report.knitted_straight
    assert reading.knitted == tuple(parse_tiles("147m258p369s"))
    assert reading.pair == parse_tiles("5z")[0]
    assert [(b.type, b.tiles, b.meld) for b in reading.blocks] == [("chow", tuple(parse_tiles("123m")), None)]


def test_knitted_straight_reading_with_meld() -> None:
    chow = meld("chow", "567p")
    (reading,) = find_shapes(parse_tiles("147m258p369s99m"), [chow]).knitted_straight
    assert reading.pair == parse_tiles("9m")[0]
    assert reading.blocks == (Block("chow", chow.tiles, chow),)


def test_knitted_sets_are_the_six_assignments() -> None:
    assert len(set(KNITTED_SETS)) == 6
    for knitted in KNITTED_SETS:
        assert len(knitted) == 9
        ranks_by_suit = [{k % 9 % 3 for k in knitted if k // 9 == suit} for suit in range(3)]
        assert sorted(len(r) for r in ranks_by_suit) == [1, 1, 1]
        assert set().union(*ranks_by_suit) == {0, 1, 2}


@pytest.mark.parametrize(
    ("closed", "melds", "code"),
    [
        ("123m456m789p234s5z", [], "wrong_tile_count"),
        ("123m456m789p234s555z", [], "wrong_tile_count"),
        ("123m456p789p5z", [("pung", "111z")], "wrong_tile_count"),
        ("11111m456m789m23s4s", [], "invalid_tiles"),
        ("1m456m789m234s5z", [("kong_concealed", "1111m")], "invalid_tiles"),
    ],
)
def test_bad_input(closed: str, melds: list[tuple[str, str]], code: str) -> None:
    tiles = parse_tiles(closed, check_copies=False)
    declared = [meld(t, m) for t, m in melds]
    for check in (find_shapes, is_complete):
        with pytest.raises(HandError) as info:
            check(tiles, declared)
        assert info.value.code == code


@pytest.mark.parametrize("bad", [34, -1, 99, "1m", None])
def test_bad_kind(bad: Any) -> None:
    with pytest.raises(HandError) as info:
        find_shapes([bad] + parse_tiles("23m456m789p234s55z"))
    assert info.value.code == "invalid_tiles"


def test_holds_rejects_unknown_shape() -> None:
    with pytest.raises(ValueError, match="unknown shape"):
        find_shapes(parse_tiles("123m456m789p234s55z")).holds("pinfu")


# --- the per-suit table against a brute-force reader ---------------------------------------------------------


def brute_readings(counts: list[int], has_pair: bool = False) -> set[tuple[int | None, tuple[tuple[str, int], ...]]]:
    """Every (pair, sorted sets) reading of a suit by trying each block on the lowest remaining rank."""
    if not any(counts):
        return {(None, ())}
    rank = next(r for r, c in enumerate(counts) if c)
    out: set[tuple[int | None, tuple[tuple[str, int], ...]]] = set()
    options: list[tuple[str, tuple[int, ...]]] = []
    if not has_pair and counts[rank] >= 2:
        options.append(("pair", (rank, rank)))
    if counts[rank] >= 3:
        options.append(("pung", (rank, rank, rank)))
    if rank <= 6 and counts[rank + 1] and counts[rank + 2]:
        options.append(("chow", (rank, rank + 1, rank + 2)))
    for name, tiles in options:
        rest = list(counts)
        for r in tiles:
            rest[r] -= 1
        for pair, sets in brute_readings(rest, has_pair or name == "pair"):
            if name == "pair":
                out.add((rank, sets))
            else:
                out.add((pair, tuple(sorted(sets + ((name, rank),)))))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14))
def test_suit_table_matches_brute_force(counts: list[int]) -> None:
    table = SUIT_READINGS.get(tuple(counts), ())
    normalised = [(pair, tuple(sorted(sets))) for pair, sets in table]
    assert len(normalised) == len(set(normalised))  # no reading twice
    assert set(normalised) == brute_readings(counts)


def test_suit_table_complete_vectors_only() -> None:
    for key in SUIT_READINGS:
        assert sum(key) % 3 in (0, 2) and max(key) <= 4 and sum(key) <= 14


# --- properties over seeded sample hands --------------------------------------------------------------------

sample_seeds = st.integers(0, 2**32 - 1)


def sample(seed: int, spoiled: bool) -> tuple[list[int], tuple[Meld, ...]]:
    rng = random.Random(seed)
    hand = random_complete(rng, rng.choice(SAMPLE_KINDS))
    if spoiled:
        hand = spoil(rng, hand)
    return list(hand.closed), hand.melds


@settings(max_examples=300, deadline=None)
@given(sample_seeds, st.booleans(), st.randoms(use_true_random=False))
def test_shuffling_changes_nothing(seed: int, spoiled: bool, shuffler: random.Random) -> None:
    closed, melds = sample(seed, spoiled)
    shuffled = list(closed)
    shuffler.shuffle(shuffled)
    assert find_shapes(shuffled, melds) == find_shapes(closed, melds)


@settings(max_examples=300, deadline=None)
@given(sample_seeds, st.booleans(), st.sets(st.sampled_from(SHAPE_ORDER)))
def test_is_complete_agrees_with_find_shapes(seed: int, spoiled: bool, allowed: set[str]) -> None:
    closed, melds = sample(seed, spoiled)
    report = find_shapes(closed, melds)
    assert is_complete(closed, melds) == bool(report.shapes)
    assert is_complete(closed, melds, frozenset(allowed)) == bool(set(report.shapes) & allowed)


@settings(max_examples=200, deadline=None)
@given(sample_seeds, st.booleans(), st.data())
def test_fifth_copy_always_errors(seed: int, spoiled: bool, data: st.DataObject) -> None:
    closed, melds = sample(seed, spoiled)
    own = closed + [k for m in melds for k in m.tiles]
    kind = data.draw(st.sampled_from(sorted(set(own))))
    fill = 5 - own.count(kind)
    keep = [k for k in closed if k != kind]
    if len(keep) < fill:
        return  # the kind fills almost all closed tiles; nothing to overwrite
    bad = [kind] * (closed.count(kind) + fill) + keep[fill:]
    with pytest.raises(HandError) as info:
        find_shapes(bad, melds)
    assert info.value.code == "invalid_tiles"
    with pytest.raises(HandError):
        is_complete(bad, melds)


@settings(max_examples=200, deadline=None)
@given(sample_seeds)
def test_built_shape_holds(seed: int) -> None:
    rng = random.Random(seed)
    kind = rng.choice(SAMPLE_KINDS)
    hand = random_complete(rng, kind)
    assert find_shapes(hand.closed, hand.melds).holds(kind)


def test_plain_hand_with_pungs_reads_as_melded_or_not() -> None:
    closed = parse_tiles("111m555m999s22s33s3s")
    as_meld = find_shapes(parse_tiles("555m999s22s33s3s"), [Meld(MeldType.PUNG, tuple(parse_tiles("111m")))])
    assert find_shapes(closed).shapes == as_meld.shapes == (PLAIN,)


# --- golden.json --------------------------------------------------------------------------------------------


def golden_cases(shared: Path) -> list[dict[str, Any]]:
    return json.loads((shared / "rules" / "golden.json").read_text(encoding="utf-8"))["cases"]


def test_golden_shapes(shared: Path) -> None:
    """golden.json lists the shapes that hold geometrically, even where the rule set then rejects the hand;
    a hand that fails validation (WN36: five 1m) lists none."""
    checked = 0
    for case in golden_cases(shared):
        expected = case["expected"]["shapes"]
        try:
            hand = Hand.from_case(case)
        except HandError:
            assert expected == [], case["id"]
            continue
        report = find_shapes(hand.closed_tiles, hand.melds)
        assert list(report.shapes) == expected, case["id"]
        assert is_complete(hand.closed_tiles, hand.melds) == bool(expected), case["id"]
        checked += 1
    assert checked >= 50


def test_reading_lists_blocks_in_tile_order() -> None:
    (reading,) = find_shapes(parse_tiles("789s123m111m456p77s")).plain
    assert [b.tiles for b in reading.blocks] == [tuple(parse_tiles(t)) for t in ("111m", "123m", "456p", "789s")]
    (reading,) = find_shapes(parse_tiles("111z123m456p789s77s")).plain
    assert [b.tiles for b in reading.blocks] == [tuple(parse_tiles(t)) for t in ("123m", "456p", "789s", "111z")]
