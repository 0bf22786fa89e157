"""Hypothesis properties of the scorer over built winning hands, random contexts and random garbage input."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.hand import Context, Hand, HandError, Meld, MeldType
from scoring.scorer import RULESETS, rule_set, effective_options, score, score_case, waits
from scoring.settlement import deltas_of
from scoring.tiles import format_compact

PROFILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def build_hand(rng: random.Random, honours: bool) -> tuple[list[int], list[Meld], int]:
    """4 sets + a pair within the 4-copy limit; some sets declared as melds; returns (concealed, melds, win)."""
    kinds = 34 if honours else 27
    while True:
        counts = [0] * 34
        sets: list[tuple[str, tuple[int, ...]]] = []
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.randrange(27)
                if start % 9 > 6:
                    continue
                tiles = (start, start + 1, start + 2)
                sets.append(("chow", tiles))
            else:
                kind = rng.randrange(kinds)
                size = 4 if rng.random() < 0.15 else 3
                sets.append(("kong" if size == 4 else "pung", (kind,) * size))
            for t in sets[-1][1]:
                counts[t] += 1
        pair = rng.randrange(kinds)
        counts[pair] += 2
        if len(sets) == 4 and max(counts) <= 4:
            break
    melds: list[Meld] = []
    closed: list[int] = [pair, pair]
    for kind, tiles in sets:
        if kind == "kong":
            kong_type = rng.choice([MeldType.KONG_CONCEALED, MeldType.KONG_ADDED, MeldType.KONG_EXPOSED])
            feeder = rng.choice([None, 0, 1, 2, 3]) if kong_type is MeldType.KONG_EXPOSED else None
            melds.append(Meld(kong_type, tiles, feeder))
        elif rng.random() < 0.3:
            melds.append(Meld(MeldType.CHOW if kind == "chow" else MeldType.PUNG, tiles, rng.randrange(4)))
        else:
            closed.extend(tiles)
    rng.shuffle(closed)
    return closed[1:], melds, closed[0]


def random_context(rng: random.Random, melds: list[Meld]) -> Context:
    winner, dealer = rng.randrange(4), rng.randrange(4)
    self_draw = rng.random() < 0.5
    has_kong = any(m.is_kong for m in melds)
    discarder = None if self_draw else rng.choice([s for s in range(4) if s != winner])
    return Context(
        winner=winner,
        dealer=dealer,
        self_draw=self_draw,
        discarder=discarder,
        earthly=(earthly := not self_draw and rng.random() < 0.1),
        robbing_kong=not self_draw and not earthly and rng.random() < 0.1,
        bets=tuple(rng.randrange(5) for _ in range(4)),
        kong_replacement=self_draw and has_kong and rng.random() < 0.3,
        last_tile=rng.random() < 0.2,
        heavenly=self_draw and rng.random() < 0.1,
        after_kong_discard=not self_draw and rng.random() < 0.2,
        missing_suit=rng.choice([None, "m", "p", "s"]),
    )


@st.composite
def winning_hands(draw) -> tuple[Hand, str]:
    ruleset = draw(st.sampled_from(RULESETS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    concealed, melds, win = build_hand(rng, honours=ruleset in ("shaanxi", "xian"))
    return Hand(tuple(concealed), tuple(melds), win, random_context(rng, melds)), ruleset


@PROFILE
@given(winning_hands())
def test_valid_results_balance_and_invalid_ones_say_why(case):
    hand, ruleset = case
    result = score(hand, ruleset)
    assert "plain" in result.shapes
    if result.valid:
        assert sum(result.deltas) == 0
        assert result.deltas == deltas_of(result.payments)
        assert result.deltas[hand.context.winner] > 0
        assert result.items
    else:
        assert result.deltas is None and result.error and result.reason


@PROFILE
@given(winning_hands(), st.randoms())
def test_shuffling_concealed_tiles_changes_nothing(case, rnd):
    hand, ruleset = case
    tiles = list(hand.concealed)
    rnd.shuffle(tiles)
    shuffled = Hand(tuple(tiles), hand.melds, hand.win_tile, hand.context)
    assert score(shuffled, ruleset).to_json() == score(hand, ruleset).to_json()


@PROFILE
@given(winning_hands(), st.integers(0, 12))
def test_every_listed_wait_wins(case, drop):
    hand, ruleset = case
    concealed = list(hand.closed_tiles)
    del concealed[drop % len(concealed)]
    hand13 = Hand(tuple(concealed), hand.melds, None, hand.context)
    allowed = rule_set(ruleset).allowed_shapes(effective_options(ruleset, None))
    for entry in waits(hand13, ruleset):
        result = entry["result"]
        assert result.reason != "not_a_winning_shape"
        assert set(result.shapes) & allowed


TILE_TEXT = st.text(alphabet="0123456789mpszESWNCFPx ", max_size=22)


@PROFILE
@given(
    st.sampled_from(RULESETS + ("nonsense",)),
    TILE_TEXT,
    TILE_TEXT,
    st.lists(st.tuples(st.sampled_from([t.value for t in MeldType] + ["flower"]), TILE_TEXT), max_size=5),
    st.dictionaries(st.sampled_from(["winner", "dealer", "discarder", "self_draw", "bets", "missing_suit", "oops"]),
                    st.one_of(st.integers(-2, 6), st.booleans(), st.none(), st.just("p"), st.lists(st.integers(0, 5)))),
)
def test_random_input_never_raises(ruleset, hand, win, melds, context):
    case = {"id": "x", "ruleset": ruleset, "hand": hand, "win_tile": win,
            "melds": [{"type": t, "tiles": tiles} for t, tiles in melds], "context": context}
    result = score_case(case)
    assert result.id == "x"
    if not result.valid:
        assert result.error and result.reason
    else:
        assert sum(result.deltas) == 0


def test_a_fifth_copy_is_an_input_error():
    result = score_case({"ruleset": "weinan", "hand": "11111m456m789m23s", "win_tile": "4s",
                         "context": {"winner": 3, "discarder": 1}})
    assert (result.valid, result.reason, result.shapes) == (False, "invalid_tiles", [])


def test_waits_need_a_13_tile_hand():
    hand = Hand.parse("123m456m789m234s5s", [], "5s", {"self_draw": True})
    try:
        waits(hand, "weinan")
    except HandError as exc:
        assert exc.code == "wrong_tile_count"
    else:
        raise AssertionError("waits accepted a 14-tile hand")


@PROFILE
@given(winning_hands(), st.integers(0, 33))
def test_a_fifth_copy_always_errors(case, extra):
    """Turning tiles into one kind until it has five copies (melds counted) is always refused as invalid_tiles."""
    hand, ruleset = case
    concealed = list(hand.concealed)
    need = 5 - 1 - concealed.count(extra) - sum(m.tiles.count(extra) for m in hand.melds)  # -1: the winning tile
    spots = [i for i, t in enumerate(concealed) if t != extra]
    assume(need <= len(spots))
    for i in spots[:need]:
        concealed[i] = extra
    data = {"ruleset": ruleset, "hand": format_compact(concealed), "win_tile": format_compact([extra]),
            "melds": [m.to_dict() for m in hand.melds], "context": hand.context.to_dict()}
    result = score_case(data)
    assert (result.valid, result.reason, result.shapes) == (False, "invalid_tiles", [])
