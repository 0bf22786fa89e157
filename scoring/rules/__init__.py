"""Rule sets (Shaanxi, Xi'an, Weinan) over a shared interface (``base.RuleSet``); score items live in ``items/``."""
