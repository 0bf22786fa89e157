"""The rule-set interface and the checks every rule set shares.

A rule set gets a validated ``Hand`` with its ``ShapeReport`` and returns a ``ScoreResult``. Eligibility problems
("not a win", "not allowed here") are results with ``valid=False``, a human ``error`` and a machine ``reason``;
they are raised inside the rule set as ``NotAllowed`` and turned into a result in one place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from scoring.hand import Context, Hand, MeldType
from scoring.options import RuleOptions
from scoring.result import ScoreItem, ScoreResult
from scoring.settlement import KongFeederError, Ledger
from scoring.shapes import ShapeReport
from scoring.tiles import TILE_NAMES, is_honor, suit_of


class NotAllowed(Exception):
    """The hand does not score under this rule set; ``reason`` is the machine code golden.json uses."""

    def __init__(self, reason: str, message: str, items: list[ScoreItem] | None = None, fan: int | None = None):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.items = items or []
        self.fan_if_scored = fan


@dataclass
class Situation:
    """Everything a score item may look at, plus what the rule set has decided so far."""

    hand: Hand
    report: ShapeReport
    options: RuleOptions
    decisions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warning_codes: list[str] = field(default_factory=list)

    @property
    def ctx(self) -> Context:
        return self.hand.context

    @property
    def winner(self) -> int:
        return self.hand.context.winner

    def decide(self, switch: str) -> None:
        """Record that an [A#] switch decided something in this result (once)."""
        if switch not in self.decisions:
            self.decisions.append(switch)

    def warn(self, code: str, message: str) -> None:
        """Accepted, but worth a look: a stable ``code`` (for translations) and an English ``message``."""
        if message not in self.warnings:
            self.warnings.append(message)
            self.warning_codes.append(code)


class RuleSet(ABC):
    """One rule set: which shapes win, which tiles exist, and how a win is settled."""

    name: str
    zh: str

    @abstractmethod
    def allowed_shapes(self, options: RuleOptions) -> frozenset[str]:
        """Win shapes that count in this rule set (with these options)."""

    @abstractmethod
    def settle(self, sit: Situation, ledger: Ledger) -> ScoreResult:
        """Score a hand that holds an allowed shape; raise NotAllowed when it may not win."""

    def check_tiles(self, sit: Situation) -> None:
        """Tiles and melds that cannot exist in this rule set; raise NotAllowed. Default: all 34 kinds."""

    def score(self, hand: Hand, report: ShapeReport, options: RuleOptions) -> ScoreResult:
        sit = Situation(hand, report, options)
        shapes = list(report.shapes)
        try:
            self.check_tiles(sit)
            allowed = self.allowed_shapes(options)
            if not any(shape in allowed for shape in shapes):
                raise NotAllowed("not_a_winning_shape", self._no_shape_message(shapes, allowed))
            self.check_context(sit)
            ledger = Ledger()
            try:
                result = self.settle(sit, ledger)
            except KongFeederError as feeder_error:
                raise NotAllowed("kong_feeder_missing", str(feeder_error)) from feeder_error
        except NotAllowed as exc:
            return ScoreResult(
                ruleset=self.name,
                valid=False,
                shapes=shapes,
                items=exc.items,
                error=exc.message,
                reason=exc.reason,
                fan_if_scored=exc.fan_if_scored,
                decisions=sit.decisions,
                warnings=sit.warnings,
                warning_codes=sit.warning_codes,
            )
        result.shapes = shapes
        result.decisions = sit.decisions
        result.warnings = sit.warnings
        result.warning_codes = sit.warning_codes
        result.payments = ledger.payments
        result.deltas = ledger.deltas()
        return result

    def check_context(self, sit: Situation) -> None:
        """Context that contradicts itself for any rule set: 天胡 by a non-dealer, 地胡 by the dealer.

        ``self_draw: false`` beside 天胡 or 杠上花 (both self-drawn by definition) is scored as a self-draw, with a
        warning, rather than refused: the flags name the win, and the false is the odd one out."""
        ctx = sit.ctx
        if ctx.heavenly and ctx.winner != ctx.dealer:
            raise NotAllowed("heavenly_not_dealer", f"天胡 is the dealer's win; the winner is seat {ctx.winner}, "
                             f"the dealer seat {ctx.dealer}")
        if ctx.earthly and (ctx.winner == ctx.dealer or ctx.discarder != ctx.dealer):
            raise NotAllowed("earthly_not_on_dealer_discard",
                             "地胡 is a non-dealer winning on the dealer's first discard")
        if ctx.self_draw is False and ctx.is_self_draw:
            won_by = "天胡 (heavenly)" if ctx.heavenly else "杠上花 (kong_replacement)"
            sit.warn("self_draw_implied", f"self_draw false was given, but {won_by} is a self-drawn win: scored as one")
        if ctx.kong_replacement and not any(m.is_kong for m in sit.hand.melds):
            raise NotAllowed("kong_replacement_without_kong",
                             "杠上花/杠后开花 needs a kong among the winner's melds")

    def _no_shape_message(self, shapes: list[str], allowed: frozenset[str]) -> str:
        if shapes:
            return (f"{', '.join(shapes)} is not a winning shape in {self.zh} {self.name}; "
                    f"it allows {', '.join(sorted(allowed))}")
        return "not a winning hand: the tiles do not form any win shape"


def honor_tiles(hand: Hand) -> list[int]:
    return sorted({t for t in hand.all_tiles if is_honor(t)})


def reject_honors(hand: Hand, where: str) -> None:
    honors = honor_tiles(hand)
    if honors:
        names = " ".join(TILE_NAMES[t] for t in honors)
        raise NotAllowed("honor_tiles_not_in_set", f"{where} is played without honour tiles; the hand holds {names}")


def suits_in(hand: Hand) -> set[str]:
    return {suit_of(t) for t in hand.all_tiles}


def has_chow_meld(hand: Hand) -> bool:
    return any(m.type is MeldType.CHOW for m in hand.melds)
