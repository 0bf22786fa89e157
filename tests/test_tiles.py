"""Tile notation: both notations parse and format; errors name the bad character and its position."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.tiles import (
    BACK,
    CLASS_NAMES,
    FLOWER,
    N_KINDS,
    TileParseError,
    TooManyCopiesError,
    counts_of,
    format_compact,
    format_tokens,
    is_honor,
    kind_of,
    parse_tiles,
    rank_of,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("123m", [0, 1, 2]),
        ("9m1p9p1s9s", [8, 9, 17, 18, 26]),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
        ("123mEE", [0, 1, 2, 27, 27]),
        ("1m 2m E C", [0, 1, 27, 31]),
        ("1m, 9s, P", [0, 26, 33]),
        ("ESWNCFP", [27, 28, 29, 30, 31, 32, 33]),
        ("55z", [31, 31]),
        ("", []),
    ],
)
def test_parse(text: str, kinds: list[int]) -> None:
    assert parse_tiles(text) == kinds


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("123m45x", 6, "'x'"),
        ("123m0p", 4, "'0'"),
        ("8z", 0, "'8'"),
        ("123M", 3, "'M'"),
        ("m", 0, "'m'"),
        ("12", 1, "'2'"),
        ("12E", 1, "'2'"),
        ("1m 2", 3, "'2'"),
        ("1m 中", 3, "'中'"),
        # an upper-case suit letter gets told so (S and P are honours: South and 白)
        ("123M", 3, "suit letters are lower case ('m')"),
        ("234S", 2, "suit letters are lower case ('S' is South)"),
        ("5P", 0, "('P' is 白, the white dragon)"),
    ],
)
def test_parse_errors_name_character_and_position(text: str, position: int, fragment: str) -> None:
    with pytest.raises(TileParseError) as info:
        parse_tiles(text)
    assert info.value.position == position
    assert fragment in str(info.value)
    assert f"position {position}" in str(info.value)


@pytest.mark.parametrize("text", ["11111m", "1m1m1m1m1m", "EEEEE", "5z 5z 5z 5z C"])
def test_fifth_copy_is_an_error(text: str) -> None:
    with pytest.raises(TooManyCopiesError) as info:
        parse_tiles(text)
    assert info.value.count == 5


def test_fifth_copy_allowed_when_not_checked() -> None:
    assert parse_tiles("11111m", check_copies=False) == [0] * 5


@given(st.lists(st.integers(0, N_KINDS - 1), max_size=20).filter(lambda ks: max(counts_of(ks)) <= 4))
def test_format_round_trip(kinds: list[int]) -> None:
    assert parse_tiles(format_compact(kinds)) == sorted(kinds)
    assert parse_tiles(format_compact(kinds, honors_as_z=False)) == sorted(kinds)
    assert parse_tiles(format_tokens(kinds)) == kinds
    assert parse_tiles(format_compact(kinds, sort=False), check_copies=False) == kinds


@given(st.integers(0, N_KINDS - 1), st.integers(5, 8))
def test_any_fifth_copy_always_errors(kind: int, copies: int) -> None:
    with pytest.raises(TooManyCopiesError):
        parse_tiles(format_tokens([kind] * copies))


@pytest.mark.parametrize(
    ("kinds", "compact"),
    [([27, 0, 1, 33], "12m17z"), ([18, 9, 0], "1m1p1s"), ([5, 5, 31], "66m5z")],
)
def test_format_compact(kinds: list[int], compact: str) -> None:
    assert format_compact(kinds) == compact


@pytest.mark.parametrize(
    ("name", "kind", "suit", "rank", "honor"),
    [("1m", 0, "m", 1, False), ("9p", 17, "p", 9, False), ("5s", 22, "s", 5, False), ("E", 27, "z", 1, True),
     ("7z", 33, "z", 7, True)],
)
def test_kind_properties(name: str, kind: int, suit: str, rank: int, honor: bool) -> None:
    assert kind_of(name) == kind
    assert (suit_of(kind), rank_of(kind), is_honor(kind)) == (suit, rank, honor)


def test_kind_of_wants_one_tile() -> None:
    with pytest.raises(TileParseError, match="expected one tile"):
        kind_of("12m")


def test_class_names_extend_the_34_kinds() -> None:
    assert len(CLASS_NAMES) == 36
    assert (CLASS_NAMES[BACK], CLASS_NAMES[FLOWER]) == ("back", "flower")
    assert [parse_tiles(n)[0] for n in CLASS_NAMES[:N_KINDS]] == list(range(N_KINDS))


def test_class_names_match_shared_classes_txt(shared) -> None:
    names = (shared / "datasets" / "classes.txt").read_text(encoding="utf-8").split()
    assert tuple(names) == CLASS_NAMES
