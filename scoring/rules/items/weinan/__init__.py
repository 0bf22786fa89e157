"""Weinan 渭南麻将 番 items (seed 004 算分规则 1-13, SPEC §4). Items add up (``共存…累加``)."""
