"""杠的分数, paid at once: 暗杠 2·D from each other player, 放杠 2·D from the feeder, 明杠 (补杠) 1·D from each."""

from __future__ import annotations

from scoring.hand import Meld, MeldType
from scoring.options import RuleOptions
from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.settlement import Ledger, exposed_kong_feeder, others


class KongScore(Item):
    name = "kong"
    zh = "杠的分数"
    en = "kongs"

    @staticmethod
    def payments(meld: Meld, declarer: int, options: RuleOptions) -> list[tuple[int, int]]:
        """(payer, amount) for one kong, before any [A5] dealer doubling."""
        d = options.shaanxi.base_points
        if meld.type is MeldType.KONG_EXPOSED:
            return [(exposed_kong_feeder(meld, declarer), 2 * d)]
        rate = 2 if meld.type is MeldType.KONG_CONCEALED else 1
        return [(payer, rate * d) for payer in others(declarer)]

    def settle(self, sit: Situation, ledger: Ledger) -> ScoreItem | None:
        kongs = [m for m in sit.hand.melds if m.is_kong]
        if not kongs:
            return None
        for meld in kongs:
            for payer, amount in self.payments(meld, sit.winner, sit.options):
                if sit.options.shaanxi.dealer_doubling == "everything" and sit.ctx.dealer in (payer, sit.winner):
                    sit.decide("A5 shaanxi.dealer_doubling=everything")
                    amount *= 2
                ledger.pay(self.name, payer, sit.winner, amount)
        kinds = ", ".join(m.type.value for m in kongs)
        return self.make(ledger.total_to(sit.winner, self.name), f"{kinds}: 暗杠 2·D each, 放杠 2·D feeder, 明杠 1·D each")
