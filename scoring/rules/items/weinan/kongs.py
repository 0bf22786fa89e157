"""Kong points (paid at once, 荒牌不荒杠): 明杠 on a discard 1番 from the feeder (谁点扣谁), 续杠 and 暗杠 1番 from
each other player."""

from __future__ import annotations

from scoring.hand import Meld, MeldType
from scoring.options import RuleOptions
from scoring.settlement import exposed_kong_feeder, others


class WeinanKongs:
    name = "kong"
    zh = "杠"
    en = "kongs"

    @staticmethod
    def payments(meld: Meld, declarer: int, options: RuleOptions) -> list[tuple[int, int]]:
        point = options.weinan.point_value
        if meld.type is MeldType.KONG_EXPOSED:
            return [(exposed_kong_feeder(meld, declarer), point)]
        return [(payer, point) for payer in others(declarer)]
