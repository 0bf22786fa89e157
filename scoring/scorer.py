"""The scoring entry points: ``score`` a Hand, ``score_case`` a golden.json case, list ``waits`` with their scores.

None of them raises for a bad hand: bad input gives ``valid=False`` with ``reason`` = the HandError code and a
human ``error``.
"""

from __future__ import annotations

from typing import Any

from scoring.hand import Context, Hand, HandError
from scoring.options import RuleOptions
from scoring.result import ScoreResult
from scoring.rules.base import RuleSet
from scoring.rules.shaanxi import Shaanxi
from scoring.rules.weinan import Weinan
from scoring.rules.xian import Xian
from scoring.shapes import find_shapes
from scoring.tiles import TILE_NAMES
from scoring.waits import waiting_tiles

RULESETS: tuple[str, ...] = ("shaanxi", "shaanxi108", "xian", "weinan")
_RULES: dict[str, RuleSet] = {"shaanxi": Shaanxi(), "shaanxi108": Shaanxi(), "xian": Xian(), "weinan": Weinan()}


def rule_set(name: str) -> RuleSet:
    try:
        return _RULES[name]
    except KeyError:
        raise HandError(f"unknown rule set {name!r}; use one of {', '.join(RULESETS)}", "unknown_ruleset") from None


def effective_options(ruleset: str, options: RuleOptions | None) -> RuleOptions:
    """``shaanxi108`` is Shaanxi with ``shaanxi.variant=108``."""
    options = options or RuleOptions()
    if ruleset == "shaanxi108":
        return options.with_overrides({"shaanxi.variant": 108})
    return options


def score(hand: Hand, ruleset: str, options: RuleOptions | None = None) -> ScoreResult:
    """Score a winning hand under a rule set; problems come back as ``valid=False`` results."""
    try:
        rules = rule_set(ruleset)
        if hand.win_tile is None:
            raise HandError("the hand has no winning tile: give the tile that completes it", "missing_win_tile")
        report = find_shapes(hand.closed_tiles, hand.melds)
    except HandError as exc:
        return invalid_input(ruleset, exc)
    result = rules.score(hand, report, effective_options(ruleset, options))
    result.ruleset = ruleset
    return result


def score_case(case: dict[str, Any], options: RuleOptions | None = None) -> ScoreResult:
    """Score one case in golden.json's schema (``id``, ``ruleset``, ``hand``, ``melds``, ``win_tile``, ``context``)."""
    case_id = case.get("id") if isinstance(case, dict) else None
    ruleset = case.get("ruleset", "") if isinstance(case, dict) else ""
    try:
        if not isinstance(case, dict):
            raise HandError(f"a case is a JSON object, got {type(case).__name__}", "bad_case")
        if not ruleset:
            raise HandError("case is missing 'ruleset'", "bad_case")
        hand = Hand.from_case(case)
    except HandError as exc:
        result = invalid_input(str(ruleset), exc)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        result = invalid_input(str(ruleset), HandError(f"malformed case: {exc}", "bad_case"))
    else:
        result = score(hand, ruleset, options)
    result.id = case_id
    return result


def invalid_input(ruleset: str, exc: HandError) -> ScoreResult:
    return ScoreResult(ruleset=ruleset, valid=False, error=str(exc), reason=exc.code)


def waits(hand13: Hand, ruleset: str, options: RuleOptions | None = None) -> list[dict[str, Any]]:
    """Every tile that completes a 13-tile hand under the rule set's shapes, with what that win would score.

    The context (self-draw or the discarder, bets...) is the hand's own. Entries are
    ``{"tile": "5p", "result": ScoreResult}``; a win that the rules then refuse (e.g. a Weinan 1番 hand on a
    discard) is listed with its invalid result, so the app can say why.
    """
    rules = rule_set(ruleset)
    opts = effective_options(ruleset, options)
    if hand13.win_tile is not None:
        raise HandError("waits are listed for a 13-tile hand: leave the winning tile out", "wrong_tile_count")
    kinds = waiting_tiles(hand13.concealed, hand13.melds, rules.allowed_shapes(opts))
    out = []
    for kind in kinds:
        hand = Hand(hand13.concealed, hand13.melds, kind, hand13.context)
        out.append({"tile": TILE_NAMES[kind], "result": score(hand, ruleset, options)})
    return out


def parse_hand(
    concealed: str,
    win: str | None,
    melds: list[dict[str, Any]] | None = None,
    context: dict[str, Any] | Context | None = None,
) -> Hand:
    """A Hand from notation (``"123m456p..."``, melds as ``{"type", "tiles", "from"}``); raises HandError."""
    return Hand.parse(concealed, melds or [], win, context)
