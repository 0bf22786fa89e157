"""杠的分数, paid at once: 暗杠 2·D from each other player, 放杠 2·D from the feeder, 明杠 (补杠) 1·D from each."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.hand import Meld, MeldType
from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.settlement import Ledger, exposed_kong_feeder, others


class KongScore(Item):
    name = "kong"
    zh = "杠的分数"
    en = "kongs"

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreItem | None:
        kongs = [m for m in sit.hand.melds if m.is_kong]
        if not kongs:
            return None
        pay_kongs(sit, ledger, sit.winner, kongs, self.name)
        kinds = ", ".join(m.type.value for m in kongs)
        return self.make(ledger.total_to(sit.winner, self.name), f"{kinds}: 暗杠 2·D each, 放杠 2·D feeder, 明杠 1·D each")


def pay_kongs(sit: Situation, ledger: Ledger, declarer: int, kongs: Sequence[Meld], component: str) -> None:
    opts = sit.options.shaanxi
    d = opts.base_points
    for meld in kongs:
        if meld.type is MeldType.KONG_EXPOSED:
            payments = [(exposed_kong_feeder(meld, declarer), 2 * d)]
        else:
            rate = 2 if meld.type is MeldType.KONG_CONCEALED else 1
            payments = [(payer, rate * d) for payer in others(declarer)]
        for payer, amount in payments:
            if opts.dealer_doubling == "everything" and sit.ctx.dealer in (payer, declarer):
                sit.decide("A5 shaanxi.dealer_doubling=everything")
                amount *= 2
            ledger.pay(component, payer, declarer, amount)
