"""Kong points (paid at once, 荒牌不荒杠): 明杠 on a discard 1番 from the feeder (谁点扣谁), 续杠 and 暗杠 1番 from
each other player. For 杠后点胡 the discarder's own kong is not paid by the winner ([A15] default)."""

from __future__ import annotations

from scoring.hand import Meld, MeldType
from scoring.options import RuleOptions
from scoring.settlement import Ledger, exposed_kong_feeder, others


class WeinanKongs:
    name = "kong"
    zh = "杠"
    en = "kongs"

    def settle(self, ledger: Ledger, meld: Meld, declarer: int, options: RuleOptions, exempt: int | None = None) -> None:
        """Pay one kong to ``declarer``; ``exempt`` (the 杠后点胡 winner under [A15]) does not pay."""
        point = options.weinan.point_value
        if meld.type is MeldType.KONG_EXPOSED:
            payers: tuple[int, ...] = (exposed_kong_feeder(meld, declarer),)
        else:
            payers = others(declarer)
        for payer in payers:
            if payer != exempt:
                ledger.pay(self.name, payer, declarer, point)
