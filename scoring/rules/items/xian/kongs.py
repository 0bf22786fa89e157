"""暗杠 2 基数, 明杠 (on a discard or added) 1 基数, from each other player ([A9] default) — no dealer difference."""

from __future__ import annotations

from scoring.hand import Meld, MeldType
from scoring.options import RuleOptions
from scoring.rules.base import Situation
from scoring.settlement import Ledger, exposed_kong_feeder, others


class XianKongs:
    name = "kong"
    zh = "杠"
    en = "kongs"

    @staticmethod
    def payments(meld: Meld, declarer: int, options: RuleOptions) -> list[tuple[int, int]]:
        """(payer, amount) for one kong; [A9] decides who pays a kong made on a discard."""
        b = options.xian.base_points
        rate = 2 if meld.type is MeldType.KONG_CONCEALED else 1
        if meld.type is MeldType.KONG_EXPOSED and options.xian.kong_payer == "feeder":
            return [(exposed_kong_feeder(meld, declarer), rate * b)]
        return [(payer, rate * b) for payer in others(declarer)]

    def settle(self, sit: Situation, ledger: Ledger, multiplier: int) -> int:
        """Pays the winner's kongs (× the win multiplier only under [A11]); returns the winner's kong points."""
        for meld in (m for m in sit.hand.melds if m.is_kong):
            if meld.type is MeldType.KONG_EXPOSED:
                sit.decide(f"A9 xian.kong_payer={sit.options.xian.kong_payer}")
            for payer, amount in self.payments(meld, sit.winner, sit.options):
                ledger.pay(self.name, payer, sit.winner, amount * multiplier)
        return ledger.total_to(sit.winner, self.name)
