"""Hand and context validation: clear HandError codes for counts, melds, copies and seats."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.hand import Context, Hand, HandError, Meld, MeldType
from scoring.tiles import parse_tiles


def test_parse_plain_hand() -> None:
    hand = Hand.parse("123m456m789p234s5z", win_tile="5z", context={"discarder": 2, "winner": 1})
    assert hand.closed_tiles == tuple(parse_tiles("123m456m789p234s5z5z"))
    assert hand.context.self_draw is False
    assert hand.context.losers == (0, 2, 3)


def test_melds_and_kong_tile_count() -> None:
    hand = Hand.parse("123m456p789p5z", [{"type": "kong_concealed", "tiles": "2222s"}], "5z")
    assert len(hand.all_tiles) == 15  # 14 plus one per kong
    assert hand.melds[0].is_kong and hand.melds[0].kind == parse_tiles("2s")[0]


@pytest.mark.parametrize(
    ("concealed", "melds", "win", "code", "fragment"),
    [
        ("123m456m789p234s", [], "5z", "wrong_tile_count", "needs 14"),
        ("123m456m789p234s55z", [], "5z", "wrong_tile_count", "got 14"),
        ("123m456p789p55z", [{"type": "kong_exposed", "tiles": "2222s", "from": 1}], "5z", "wrong_tile_count",
         "needs 15"),
        ("123m456m789p234s55z", [], None, "wrong_tile_count", "needs 13"),
        ("11111m456m789m23s", [], "4s", "invalid_tiles", "5 copies of 1m"),
        ("1m456m789m234s", [{"type": "kong_concealed", "tiles": "1111m"}], "1m", "invalid_tiles", "melds included"),
        ("123m456m789p234s5x", [], "5z", "invalid_tiles", "'x' at position 17"),
        ("123m456m789p234s5z", [], "5q", "invalid_tiles", "'q'"),
        ("123m456m789p5z", [{"type": "chow", "tiles": "135s"}], "5z", "bad_meld", "not a chow"),
        ("123m456m789p5z", [{"type": "chow", "tiles": "123z"}], "5z", "bad_meld", "not a chow"),
        ("123m456m789p5z", [{"type": "chow", "tiles": "89m1p"}], "5z", "bad_meld", "not a chow"),
        ("123m456m789p5z", [{"type": "pung", "tiles": "556s"}], "5z", "bad_meld", "3 identical"),
        ("123m456m789p5z", [{"type": "kong_added", "tiles": "555s"}], "5z", "bad_meld", "4 identical"),
        ("123m456m789p5z", [{"type": "triple", "tiles": "555s"}], "5z", "bad_meld", "unknown meld type"),
        ("123m456m789p5z", [{"type": "pung", "tiles": "555s", "from": 4}], "5z", "bad_seat", "out of range"),
    ],
)
def test_bad_hands(concealed: str, melds: list[dict[str, Any]], win: str | None, code: str, fragment: str) -> None:
    with pytest.raises(HandError) as info:
        Hand.parse(concealed, melds, win, {"self_draw": True})
    assert info.value.code == code
    assert fragment in str(info.value)


def test_five_melds_rejected() -> None:
    pung = Meld(MeldType.PUNG, (0, 0, 0))
    with pytest.raises(HandError, match="at most 4") as info:
        Hand((), (pung,) * 5)
    assert info.value.code == "wrong_tile_count"


@pytest.mark.parametrize(
    ("tiles", "where"),
    [((99,) * 13, "concealed"), ((-1,) + (0,) * 12, "concealed"), ((34,) + (0,) * 12, "concealed")],
)
def test_kinds_out_of_range(tiles: tuple[int, ...], where: str) -> None:
    with pytest.raises(HandError, match=where) as info:
        Hand(tiles)
    assert info.value.code == "invalid_tiles"


def test_meld_kind_out_of_range() -> None:
    with pytest.raises(HandError, match="not a tile kind"):
        Meld(MeldType.PUNG, (40, 40, 40))


@pytest.mark.parametrize(
    ("context", "code", "fragment"),
    [
        ({"winner": 4, "self_draw": True}, "bad_seat", "winner seat 4"),
        ({"dealer": -1, "self_draw": True}, "bad_seat", "dealer seat -1"),
        ({"discarder": 5}, "bad_seat", "discarder seat 5"),
        ({"winner": 2, "discarder": 2}, "bad_seat", "cannot be the winner"),
        ({"self_draw": True, "discarder": 1}, "bad_context", "no discarder"),
        ({"self_draw": False}, "bad_context", "needs the discarder"),
        ({"self_draw": True, "bets": [0, 0, 0]}, "bad_bets", "one value per seat"),
        ({"self_draw": True, "bets": [0, -1, 0, 0]}, "bad_bets", "bet of seat 1"),
        ({"self_draw": True, "missing_suit": "z"}, "bad_context", "missing suit"),
        ({"self_draw": True, "colour": "red"}, "bad_context", "unknown context field"),
        # contradictions are named as what they are, not as a missing or extra discarder
        ({"robbing_kong": True, "self_draw": True, "discarder": 2}, "bad_context", "not self-drawn"),
        ({"robbing_kong": True}, "bad_context", "the seat whose kong was robbed"),
        ({"after_kong_discard": True, "self_draw": True}, "bad_context", "杠后点胡"),
        ({"kong_replacement": True, "discarder": 2}, "bad_context", "杠上花) is self-drawn"),
        # JSON types: a seat is a whole number, a flag true or false
        ({"winner": True, "self_draw": True}, "bad_seat", "winner seat True"),
        ({"discarder": "2"}, "bad_seat", "discarder seat '2'"),
        ({"winner": 1.0, "self_draw": True}, "bad_seat", "winner seat 1.0"),
        ({"self_draw": "no"}, "bad_context", "self_draw is 'no'"),
        ({"self_draw": True, "last_tile": 1}, "bad_context", "last_tile is 1"),
        ({"self_draw": True, "bets": [0, 0, 0, False]}, "bad_bets", "bet of seat 3"),
        ({"self_draw": True, "bets": 4}, "bad_bets", "one whole number per seat"),
    ],
)
def test_bad_context(context: dict[str, Any], code: str, fragment: str) -> None:
    with pytest.raises(HandError) as info:
        Context.from_dict(context)
    assert info.value.code == code
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("context", "self_draw", "discarder"),
    [
        ({}, True, None),
        ({"discarder": 3}, False, 3),
        ({"earthly": True, "dealer": 1, "winner": 2}, False, 1),
        ({"robbing_kong": True, "discarder": 0, "winner": 1}, False, 0),
        ({"heavenly": True}, True, None),
    ],
)
def test_context_defaults(context: dict[str, Any], self_draw: bool, discarder: int | None) -> None:
    ctx = Context.from_dict(context)
    assert (ctx.is_self_draw, ctx.discarder) == (self_draw, discarder)


def test_round_trip_through_dict() -> None:
    hand = Hand.parse(
        "147m258p369s9m", [{"type": "chow", "tiles": "567p", "from": 0}], "9m", {"winner": 1, "discarder": 0}
    )
    again = Hand.from_case(hand.to_dict())
    assert sorted(again.concealed) == sorted(hand.concealed)
    assert (again.melds, again.win_tile, again.context) == (hand.melds, hand.win_tile, hand.context)


def test_from_case_needs_hand() -> None:
    with pytest.raises(HandError, match="missing 'hand'"):
        Hand.from_case({"melds": []})
