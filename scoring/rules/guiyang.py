"""贵阳捉鸡 (seed 003), PARTIAL: only what the seed's fragment states.

Stated and implemented: 108 tiles (万筒条, no honours, no flowers); 碰 and 杠 but no 吃; plain wins (4 sets + pair);
混一色 5 / 清一色 10 base 番 (混5清10); 连庄: the dealer who keeps the deal adds 1 base 番 per continuation, and when
someone else wins the dealer pays pattern 番 + 连庄番 while the other players pay the pattern 番 (其余非庄家只需支付
牌型番数); a player's 豆 (kongs) and chickens count only when the hand is 叫牌 (ready: ``jiao_pai``); 手上鸡 / 内外鸡
decide whether a player's discarded chickens count (``chicken_count``, ``guiyang.chicken_mode``).

Not in the seed, so not scored: the value of a hand without 混一色/清一色, any other pattern, chicken (鸡) values
and 翻鸡, 豆 values, and the difference between a discard win and a self-draw. A result says so in ``partial`` and
``warnings``; ``deltas`` is None when the pattern 番 is unknown, and otherwise covers only the pattern 番 and 连庄.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.hand import Hand, HandError, Meld
from scoring.options import RuleOptions
from scoring.result import ScoreResult
from scoring.rules.base import NotAllowed, RuleSet, Situation, has_chow_meld, reject_honors
from scoring.rules.items.guiyang.lianzhuang import LianZhuang
from scoring.rules.items.guiyang.yise import HunYiSe, QingYiSe
from scoring.settlement import Ledger, others
from scoring.shapes import PLAIN, ShapeReport
from scoring.tiles import TILE_NAMES
from scoring.waits import waiting_tiles

PARTIAL = "partial: the seed does not give chicken values or payments"
PLAIN_ONLY = frozenset({PLAIN})
UNPRICED_CONTEXT = ("kong_replacement", "last_tile", "heavenly", "earthly", "robbing_kong", "after_kong_discard")


class GuiyangResult(ScoreResult):
    """A ScoreResult with the ``partial`` flag: what the seed leaves out of every 贵阳捉鸡 result."""

    partial: str = PARTIAL


class Guiyang(RuleSet):
    name = "guiyang"
    zh = "贵阳捉鸡"

    def allowed_shapes(self, options: RuleOptions) -> frozenset[str]:
        return PLAIN_ONLY

    def check_tiles(self, sit: Situation) -> None:
        if sit.options.guiyang.honours_house_rule:
            sit.decide("guiyang.honours_house_rule=true (not in the seed)")
        else:
            reject_honors(sit.hand, "贵阳捉鸡 (108 tiles: 条、筒、万 only)")
        if has_chow_meld(sit.hand):
            raise NotAllowed("chow_not_allowed", "贵阳捉鸡 has no 吃 (可碰，可杠，可胡；但是不可吃牌): the hand "
                                                 "shows an exposed chow")

    def score(self, hand: Hand, report: ShapeReport, options: RuleOptions) -> GuiyangResult:
        result = GuiyangResult(**super().score(hand, report, options).model_dump())
        if result.valid and result.fan is None:
            result.deltas = None
        return result

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreResult:
        pattern = QingYiSe().evaluate(sit) or HunYiSe().evaluate(sit)
        lianzhuang = LianZhuang().evaluate(sit)
        items = [item for item in (pattern, lianzhuang) if item is not None]
        warn_unpriced(sit)
        fan = pattern.value if pattern else None
        if fan is None:
            sit.warn("no_fan_for_pattern",
                     "the seed gives no 番 for a hand that is neither 混一色 nor 清一色: no amount is computed")
        else:
            pay_pattern(sit, ledger, fan, lianzhuang.value if lianzhuang else 0)
        return ScoreResult(ruleset=self.name, valid=True, scored_shape=PLAIN, items=items, fan=fan)


def pay_pattern(sit: Situation, ledger: Ledger, fan: int, extra: int) -> None:
    """The seed's 连庄 sentence: every other player pays the pattern 番; the dealer adds the 连庄番 (a winning
    dealer's base 番 carries it, so then every payer pays it)."""
    ctx = sit.ctx
    for payer in others(ctx.winner):
        carries_extra = ctx.winner == ctx.dealer or payer == ctx.dealer
        ledger.pay("fan", payer, ctx.winner, fan + (extra if carries_extra else 0))
    sit.warn("discard_not_told_apart", "the seed does not tell a discard win from a self-draw: every other player "
             "pays, as its 连庄 sentence says (其余非庄家只需支付牌型番数)")


def warn_unpriced(sit: Situation) -> None:
    """Name what the hand holds or claims that the fragment gives no value for."""
    if any(meld.is_kong for meld in sit.hand.melds):
        sit.warn("kongs_not_scored", "豆 (kongs) are not scored: the seed gives no 豆 values")
    claimed = [name for name in UNPRICED_CONTEXT if getattr(sit.ctx, name)]
    if any(sit.ctx.bets):
        claimed.append("bets")
    if claimed:
        sit.warn("situations_ignored", f"ignored, the seed gives no value for: {', '.join(claimed)}")


@dataclass(frozen=True)
class JiaoPai:
    """双杀：无论哪种豆，都必须叫牌才能算番 — a player's 豆 (and chickens) count only when the hand is ready."""

    ready: bool
    waits: tuple[str, ...]

    @property
    def message(self) -> str:
        if self.ready:
            return f"叫牌 (waits on {' '.join(self.waits)}): its 豆 and chickens count"
        return "not 叫牌: its 豆 and chickens do not count (都必须叫牌才能算番)"


def jiao_pai(concealed: Sequence[int], melds: Sequence[Meld] = ()) -> JiaoPai:
    """Whether a 13-tile hand (+ melds) is ready under 贵阳捉鸡's plain wins; raises HandError for a wrong count."""
    waits = waiting_tiles(concealed, melds, PLAIN_ONLY)
    return JiaoPai(bool(waits), tuple(TILE_NAMES[kind] for kind in waits))


@dataclass(frozen=True)
class ChickenCount:
    """How many chicken tiles a player has under 手上鸡 / 内外鸡 (their value is not in the seed)."""

    mode: str
    kept: int
    discarded: int

    @property
    def counted(self) -> int:
        return self.kept + (self.discarded if self.mode == "nei_wai" else 0)


def chicken_count(hand: Hand, chickens: Iterable[int], discards: Sequence[int], options: RuleOptions | None = None
                  ) -> ChickenCount:
    """手上鸡: only the player's tiles not discarded (hand and melds); 内外鸡: discarded ones too.

    ``chickens`` are the chicken kinds of this hand (the seed does not say how 翻鸡 picks them, so the caller
    gives them). Raises HandError for a discard that is not a tile kind.
    """
    kinds = set(chickens)
    for tile in discards:
        if not isinstance(tile, int) or not 0 <= tile < len(TILE_NAMES):
            raise HandError(f"discard {tile!r} is not a tile kind (0-33)", "invalid_tiles")
    mode = (options or RuleOptions()).guiyang.chicken_mode
    kept = sum(tile in kinds for tile in hand.all_tiles)
    return ChickenCount(mode, kept, sum(tile in kinds for tile in discards))


def kong_payments(meld: Meld, declarer: int, options: RuleOptions) -> list[tuple[int, int]]:
    """``scoring.scorer.kong_deltas`` for 贵阳捉鸡: the seed gives no 豆 values, so this refuses."""
    raise HandError("贵阳捉鸡: the seed gives no 豆 (kong) values or payments", "not_in_seed")
