"""The dice/wall helper page: enter the throws, read whose wall and which stack the deal starts from."""

from __future__ import annotations

import streamlit as st

from mjsnap.app import state
from mjsnap.app.i18n import CONVENTION_NAMES, RELATIVE_SEATS, pick
from mjsnap.app.wall_diagram import draw_walls
from mjsnap.dice import CONVENTION_FOR_RULESET, CONVENTIONS, DiceError, WallStart, wall_start


def _throw(label: str, key: str, t) -> tuple[int, int]:
    st.caption(label)
    with st.container(horizontal=True, gap="small"):
        return tuple(
            int(st.number_input(t("die", n=n), 1, 6, step=1, key=f"{key}-{n}", width=110)) for n in (1, 2)
        )


def seat_name(plan: WallStart, relative: int, dealer: int, lang: str) -> str:
    """The player and where they sit as seen from the dealer: '南（下家，右手）', 'B (on the right, next)'."""
    player = state.ledger().players[plan.absolute(relative, dealer)]
    where = pick(RELATIVE_SEATS[relative], lang)
    return f"{player}（{where}）" if lang == "zh" else f"{player} ({where})"


def explain(plan: WallStart, dealer: int, t, lang: str) -> list[str]:
    """The steps of the plan in words."""
    name = lambda rel: seat_name(plan, rel, dealer, lang)  # noqa: E731
    first_total = sum(plan.throws[0])
    lines = []
    if plan.second_thrower is not None:
        lines.append(t("dice_second_thrower", total=first_total, name=name(plan.second_thrower)))
        lines.append(t("dice_wall", name=name(plan.wall_owner)))
        lines.append(
            t("dice_skip_both", a=first_total, b=sum(plan.throws[1]), skip=plan.skipped, name=name(plan.wall_owner))
        )
    else:
        lines.append(t("dice_wall_counted", total=first_total, name=name(plan.wall_owner)))
        rule = CONVENTIONS[plan.convention].skip
        key = "dice_skip_small" if rule == "smaller_die" else "dice_skip_sum"
        lines.append(t(key, skip=plan.skipped, name=name(plan.wall_owner)))
    if plan.start_wall != plan.wall_owner:
        lines.append(t("dice_overflow", name=name(plan.start_wall)))
    lines.append(t("dice_start", name=name(plan.start_wall), stack=plan.start_stack))
    if plan.stacks_left_in_wall is not None:
        split = t("dice_split") if plan.split_grab else ""
        lines.append(t("dice_left", left=plan.stacks_left_in_wall, grabs=plan.grabs_in_wall, split=split))
    return lines


def show(t, lang: str) -> None:
    st.subheader(t("dice_header"))
    if "dice-convention" not in st.session_state:
        ruleset = st.session_state.get("ctx-ruleset", "shaanxi")
        st.session_state["dice-convention"] = CONVENTION_FOR_RULESET.get(ruleset, "shaanxi")
    convention = st.selectbox(
        t("convention"), list(CONVENTIONS), key="dice-convention",
        format_func=lambda c: pick(CONVENTION_NAMES[c], lang),
    )
    players = state.ledger().players
    if "dice-dealer" not in st.session_state:
        st.session_state["dice-dealer"] = state.ledger().dealer()
    dealer = st.selectbox(t("dice_dealer"), range(4), key="dice-dealer", format_func=lambda s: f"{s}: {players[s]}")
    first = _throw(t("first_throw"), "dice-first", t)
    second = None
    if CONVENTIONS[convention].throws == 2:
        thrower = (dealer + (sum(first) - 1)) % 4
        second = _throw(t("second_throw", name=players[thrower]), "dice-second", t)
    try:
        plan = wall_start(convention, first, second)
    except DiceError as exc:
        st.error(str(exc))
        return
    for line in explain(plan, dealer, t, lang):
        st.markdown(f"- {line}")
    st.image(draw_walls(plan, dealer), caption=t("dice_diagram"), width=360)
    st.caption(t("dice_source", seed=CONVENTIONS[convention].seed))
