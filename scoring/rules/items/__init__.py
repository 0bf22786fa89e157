"""Score items, one small named class per file, grouped by rule set (like the ``mahjong`` library's yaku)."""
