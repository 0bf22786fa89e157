"""西安麻将 (seed 001, SPEC §3): plain hands only, chows allowed, no dealer doubling.

Win base per payer (× 基数 B): discard 1 / self-draw 2, 夹张/单调 +1, 杠后开花 ×2; 天胡 6 ([A7]). A discard is
paid by the discarder ([A8]); bets (bet_W + bet_L)·B, doubled on a self-draw; kongs 暗杠 2B / 明杠 1B each ([A9]).
The ×2/×3 multipliers do not reach bets and kongs unless ``xian.multiply_bets_and_kongs`` ([A11]).
"""

from __future__ import annotations

from scoring.options import RuleOptions
from scoring.result import ScoreItem, ScoreResult
from scoring.rules.base import RuleSet, Situation
from scoring.rules.items.xian.bets import XianBets
from scoring.rules.items.xian.discard import DiscardWin
from scoring.rules.items.xian.heavenly import Tianhu
from scoring.rules.items.xian.jiazhang_dandiao import JiazhangOrDandiao
from scoring.rules.items.xian.kong_bloom import GangHouKaiHua
from scoring.rules.items.xian.kongs import XianKongs
from scoring.rules.items.xian.self_draw import SelfDrawWin
from scoring.settlement import Ledger, others
from scoring.shapes import PLAIN

PLAIN_ONLY = frozenset({PLAIN})


class Xian(RuleSet):
    name = "xian"
    zh = "西安麻将"

    def allowed_shapes(self, options: RuleOptions) -> frozenset[str]:
        return PLAIN_ONLY

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreResult:
        opts = sit.options.xian
        items, multiplier = win_chain(sit)
        base = items[-1].value
        payers = win_payers(sit)
        for payer in payers:
            ledger.pay("win", payer, sit.winner, base * opts.base_points)
        if multiplier != 1:
            sit.decide(f"A11 xian.multiply_bets_and_kongs={str(opts.multiply_bets_and_kongs).lower()}")
        side = multiplier if opts.multiply_bets_and_kongs else 1
        if any(sit.ctx.bets):
            XianBets().settle(sit, ledger, payers, side)
        kong_points = XianKongs().settle(sit, ledger, side)
        return ScoreResult(
            ruleset=self.name,
            valid=True,
            scored_shape=PLAIN,
            items=items,
            per_payer_win_base=base,
            kong_points_to_winner=kong_points if any(m.is_kong for m in sit.hand.melds) else None,
        )


def win_chain(sit: Situation) -> tuple[list[ScoreItem], int]:
    """The successive per-payer bases and the multiplier applied to the win (1, 2 or 3)."""
    ctx, opts = sit.ctx, sit.options.xian
    if ctx.heavenly:
        return [Tianhu().start(sit)], Tianhu.multiplier
    first = SelfDrawWin() if ctx.is_self_draw else DiscardWin()
    items = [first.start(opts.base_points)]
    bonus = JiazhangOrDandiao().apply(sit, items[-1].value)
    if bonus is not None:
        items.append(bonus)
    if ctx.kong_replacement and ctx.is_self_draw:
        items.append(GangHouKaiHua().apply(items[-1].value))
        return items, GangHouKaiHua.multiplier
    return items, 1


def win_payers(sit: Situation) -> tuple[int, ...]:
    """Self-draw: the other three. Discard: the discarder ([A8] default) or all three."""
    ctx = sit.ctx
    if ctx.is_self_draw:
        return others(ctx.winner)
    choice = sit.options.xian.discard_payer
    sit.decide(f"A8 xian.discard_payer={choice}")
    return others(ctx.winner) if choice == "all" else (ctx.discarder,)
