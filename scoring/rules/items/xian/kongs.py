"""暗杠 2 基数, 明杠 (on a discard or added) 1 基数, from each other player ([A9] default) — no dealer difference."""

from __future__ import annotations

from scoring.hand import MeldType
from scoring.rules.base import Situation
from scoring.settlement import Ledger, exposed_kong_feeder, others


class XianKongs:
    name = "kong"
    zh = "杠"
    en = "kongs"

    def settle(self, sit: Situation, ledger: Ledger, multiplier: int) -> int:
        """Pays the winner's kongs; returns the points the winner got for them."""
        b = sit.options.xian.base_points
        winner = sit.winner
        for meld in (m for m in sit.hand.melds if m.is_kong):
            rate = 2 if meld.type is MeldType.KONG_CONCEALED else 1
            if meld.type is MeldType.KONG_EXPOSED:
                sit.decide(f"A9 xian.kong_payer={sit.options.xian.kong_payer}")
            if meld.type is MeldType.KONG_EXPOSED and sit.options.xian.kong_payer == "feeder":
                payers: tuple[int, ...] = (exposed_kong_feeder(meld, winner),)
            else:
                payers = others(winner)
            for payer in payers:
                ledger.pay(self.name, payer, winner, rate * b * multiplier)
        return ledger.total_to(winner, self.name)
