"""The scoring entry points: ``score`` a Hand, ``score_case`` a golden.json case, list ``waits`` with their scores.

None of them raises for a bad hand: bad input gives ``valid=False`` with ``reason`` = the HandError code and a
human ``error``.
"""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

from scoring.hand import N_SEATS, Context, Hand, HandError, Meld
from scoring.options import RuleOptions
from scoring.result import ScoreResult
from scoring.settlement import Ledger
from scoring.rules.base import RuleSet
from scoring.rules.guiyang import Guiyang
from scoring.rules.guiyang import kong_payments as guiyang_kong_payments
from scoring.rules.items.shaanxi.kong import KongScore
from scoring.rules.items.weinan.kongs import WeinanKongs
from scoring.rules.items.xian.kongs import XianKongs
from scoring.rules.shaanxi import Shaanxi
from scoring.rules.weinan import Weinan
from scoring.rules.xian import Xian
from scoring.shapes import find_shapes
from scoring.tiles import TILE_NAMES
from scoring.waits import waiting_tiles

RULESETS: tuple[str, ...] = ("shaanxi", "shaanxi108", "xian", "weinan")
PARTIAL_RULESETS: tuple[str, ...] = ("guiyang",)  # scored only as far as the seed's fragment goes (docs/weimaque.md)
_RULES: dict[str, RuleSet] = {
    "shaanxi": Shaanxi(), "shaanxi108": Shaanxi(), "xian": Xian(), "weinan": Weinan(), "guiyang": Guiyang()
}


def rule_set(name: str) -> RuleSet:
    if isinstance(name, str) and name in _RULES:
        return _RULES[name]
    raise HandError(f"unknown rule set {name!r}; use one of {', '.join(RULESETS + PARTIAL_RULESETS)}",
                    "unknown_ruleset")


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
    # JSON input can name the rule set with any type (5, ["weinan"]): the result still says what was given
    return ScoreResult(ruleset=ruleset if isinstance(ruleset, str) else str(ruleset), valid=False, error=str(exc),
                       reason=exc.code)


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


_KONG_PAYMENTS = {
    "shaanxi": KongScore.payments,
    "shaanxi108": KongScore.payments,
    "xian": XianKongs.payments,
    "weinan": WeinanKongs.payments,
    "guiyang": guiyang_kong_payments,
}


def kong_deltas(
    ruleset: str,
    declarer: int,
    kongs: Sequence[Meld],
    options: RuleOptions | None = None,
    *,
    drawn: bool = False,
    after_kong_discard_winner: int | None = None,
    dealer: int | None = None,
) -> list[int]:
    """Per-seat points for kongs of any player, settled on their own (a winning hand's kongs are in its result).

    ``drawn``: the hand ended without a winner (荒庄). Shaanxi keeps them by default and voids them with
    ``shaanxi.kong_on_draw=void`` ([A4]); Xi'an keeps them; Weinan keeps them (荒牌不荒杠).
    ``after_kong_discard_winner``: Weinan 杠后点胡, ``kongs`` are the discarder's; by default ([A15]) the winner
    does not pay for them (对胡牌的玩家来说杠不算), ``weinan.after_kong_discard_kong=all_pay`` makes them pay.
    ``dealer``: the dealer's seat. Only Shaanxi with ``shaanxi.dealer_doubling=everything`` ([A5] 庄家的得失分均按2倍
    计算) uses it: a kong payment with the dealer on either side is doubled, as it is for a winner's own kongs; that
    reading cannot be settled without it.
    Raises HandError for an unknown rule set, a meld that is not a kong, or [A5] ``everything`` without ``dealer``.
    """
    rules = rule_set(ruleset)
    opts = effective_options(ruleset, options)
    for meld in kongs:
        if not meld.is_kong:
            raise HandError(f"{meld.type.value} is not a kong", "bad_meld")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < N_SEATS):
        raise HandError(f"dealer seat {dealer!r} is not a whole number 0-3", "bad_seat")
    ledger = Ledger()
    if drawn and rules.name == "shaanxi" and opts.shaanxi.kong_on_draw == "void":
        return ledger.deltas()
    double_dealer = rules.name == "shaanxi" and opts.shaanxi.dealer_doubling == "everything"
    if double_dealer and kongs and dealer is None:
        raise HandError("shaanxi.dealer_doubling=everything doubles the dealer's kong payments: give the dealer's "
                        "seat", "bad_context")
    exempt = None
    if rules.name == "weinan" and opts.weinan.after_kong_discard_kong == "winner_exempt":
        exempt = after_kong_discard_winner
    for meld in kongs:
        for payer, amount in _KONG_PAYMENTS[ruleset](meld, declarer, opts):
            if payer != exempt:
                doubled = double_dealer and dealer in (payer, declarer)
                ledger.pay("kong", payer, declarer, amount * (2 if doubled else 1))
    return ledger.deltas()
