"""胡牌分数: 放胡 1·D, 自摸 2·D per payer; 庄家翻倍 when the dealer pays or wins (SPEC §2)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.settlement import Ledger, others


class HuScore(Item):
    name = "hu"
    zh = "胡牌分数"
    en = "win score"

    def settle(self, sit: Situation, ledger: Ledger, payers: tuple[int, ...]) -> ScoreItem:
        ctx, opts = sit.ctx, sit.options.shaanxi
        per_payer = opts.base_points * (2 if ctx.is_self_draw else 1)
        for payer in payers:
            doubled = ctx.dealer in (payer, ctx.winner)
            ledger.pay(self.name, payer, ctx.winner, per_payer * (2 if doubled else 1))
        how = "自摸 2·D from each" if ctx.is_self_draw else (
            "放胡 1·D from each" if len(payers) == 3 else "放胡 1·D from the discarder")
        return self.make(ledger.total_to(ctx.winner, self.name), f"{how}, D={opts.base_points}; 庄家翻倍")


def hu_payers(sit: Situation) -> tuple[int, ...]:
    """All three pay on a self-draw; on a discard all three ([A3] default) or the discarder alone."""
    ctx = sit.ctx
    if ctx.is_self_draw:
        return others(ctx.winner)
    sit.decide(f"A3 shaanxi.discard_payer={sit.options.shaanxi.discard_payer}")
    if sit.options.shaanxi.discard_payer == "discarder":
        return (ctx.discarder,)
    return others(ctx.winner)
