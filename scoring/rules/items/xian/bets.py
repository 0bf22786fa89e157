"""下注: between the winner W and each paying player L, L pays (bet_W + bet_L)·B, doubled on a self-draw."""

from __future__ import annotations

from scoring.rules.base import Situation
from scoring.settlement import Ledger


class XianBets:
    name = "bets"
    zh = "下注"
    en = "bets"

    def settle(self, sit: Situation, ledger: Ledger, payers: tuple[int, ...], multiplier: int) -> None:
        ctx = sit.ctx
        b = sit.options.xian.base_points
        factor = (2 if ctx.is_self_draw else 1) * multiplier
        for payer in payers:
            ledger.pay(self.name, payer, ctx.winner, (ctx.bets[ctx.winner] + ctx.bets[payer]) * b * factor)
