"""下炮子: each loser L pays (b_L + b_W)·A·D, A = 1 on a discard, 2 on a self-draw (SPEC §2)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import NotAllowed, Situation
from scoring.rules.items.base import Item
from scoring.settlement import Ledger, others


class PaoziScore(Item):
    name = "paozi"
    zh = "下炮子"
    en = "bets (paozi)"

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreItem:
        ctx, opts = sit.ctx, sit.options.shaanxi
        check_bets(sit)
        a = 2 if ctx.is_self_draw else 1
        payers = others(ctx.winner)
        if not ctx.is_self_draw and any(ctx.bets):
            sit.decide(f"A3 shaanxi.paozi_discard_payer={opts.paozi_discard_payer}")
            if opts.paozi_discard_payer == "discarder":
                payers = (ctx.discarder,)
        bw = ctx.bets[ctx.winner]
        for payer in payers:
            amount = (ctx.bets[payer] + bw) * a * opts.base_points
            if opts.dealer_doubling == "everything" and ctx.dealer in (payer, ctx.winner):
                sit.decide("A5 shaanxi.dealer_doubling=everything")
                amount *= 2
            ledger.pay(self.name, payer, ctx.winner, amount)
        return self.make(
            ledger.total_to(ctx.winner, self.name),
            f"(b_L + b_W)·A·D per payer, A={a}, D={opts.base_points}, bets {list(ctx.bets)}",
        )


def check_bets(sit: Situation) -> None:
    """[A6] 炮子 0..max_bet (default 0-4)."""
    top = sit.options.shaanxi.max_bet
    for seat, bet in enumerate(sit.ctx.bets):
        if bet > top:
            sit.decide(f"A6 shaanxi.max_bet={top}")
            raise NotAllowed("bet_out_of_range", f"seat {seat} bet {bet} 炮子: Shaanxi allows 0-{top}")
