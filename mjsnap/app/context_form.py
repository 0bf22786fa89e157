"""The hand's context: rule set and its switches, seats, self-draw, bets, special situations, Weinan's missing suit.

Widgets keep their values in the session under ``ctx-*`` / ``opt-*`` keys, so a correction of the tiles does not
reset them (nor a visit to another page: state.keep_inputs). Bets and the dealer start from the ledger (the last
hand's bets, the rotation's dealer).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st
from pydantic import BaseModel

from mjsnap.app import state
from mjsnap.app.draft import Draft
from mjsnap.app.i18n import RULESET_NAMES, SUIT_NAMES, pick
from mjsnap.i18n_catalogue import explain, option_label, option_value
from scoring.hand import MAX_BET, N_SEATS, Context, HandError
from scoring.options import OptionError, RuleOptions
from scoring.scorer import RULESETS

SECTION_OF = {"shaanxi": "shaanxi", "shaanxi108": "shaanxi", "xian": "xian", "weinan": "weinan"}
FIXED_BY_RULESET = {"shaanxi108": {"variant"}}  # the 108 rule set is the variant switch itself
SITUATIONS = ("kong_replacement", "last_tile", "heavenly", "earthly", "robbing_kong", "after_kong_discard")
SELF_DRAWN_SITUATIONS = ("kong_replacement", "heavenly")  # Context treats these as self-drawn
BET_WIDTH = 68  # px: a bet is a number or two; four fit the 326 px inside the expander on a 390 px phone


@dataclass(frozen=True)
class HandSetup:
    ruleset: str
    options: RuleOptions | None  # None when an option is not valid (error says why)
    context: Context | None  # None when the seats/situations are not valid
    error: str | None


def seat_label(players: tuple[str, ...]) -> Callable[[int], str]:
    """A seat as a selectbox shows it, "2: 西" (a closure over the names: AppTest calls it outside the script)."""
    return lambda seat: f"{seat}: {players[seat]}"


def missing_suit_guess(draft: Draft) -> str | None:
    """The suit the tiles do not show (the first one, for a one-suit hand); None when all three show."""
    absent = [s for s in "mps" if s not in draft.suits_present()]
    return absent[0] if absent else None


def start_new_hand() -> None:
    """Dealer and bets from the ledger: called at start and after a hand goes into the ledger."""
    ledger = state.ledger()
    st.session_state["ctx-dealer"] = ledger.dealer()
    st.session_state["dice-dealer"] = ledger.dealer()  # the dice page's is kept too (state.keep_inputs): update it
    for seat, bet in enumerate(ledger.next_bets()):
        st.session_state[f"ctx-bet-{seat}"] = min(bet, MAX_BET)


def _option_widget(section: str, name: str, field, value, lang: str):
    key = f"opt-{section}-{name}"
    option = f"{section}.{name}"
    label = option_label(option, lang)
    # the option's key is what `mjsnap score --option` takes; the field's description is SPEC's reasoning (English)
    help_text = f"{field.description} (`{option}`)" if lang == "en" else f"`{option}`"
    annotation = field.annotation
    is_json = typing.get_origin(annotation) is not typing.Literal and annotation not in (bool, int)
    # the default goes in through the session, not value=/index=: state.keep_inputs sets these keys again
    st.session_state.setdefault(key, json.dumps(value, ensure_ascii=False) if is_json else value)
    if typing.get_origin(annotation) is typing.Literal:
        return st.selectbox(
            label, list(typing.get_args(annotation)), key=key, help=help_text,
            format_func=lambda choice: option_value(option, choice, lang),
        )
    if annotation is bool:
        return st.checkbox(label, key=key, help=help_text)
    if annotation is int:
        low = next((m.gt + 1 for m in field.metadata if getattr(m, "gt", None) is not None), None)
        low = next((m.ge for m in field.metadata if getattr(m, "ge", None) is not None), low)
        high = next((m.le for m in field.metadata if getattr(m, "le", None) is not None), None)
        return st.number_input(label, min_value=low, max_value=high, step=1, key=key, help=help_text)
    text = st.text_input(label, key=key, help=help_text)
    return json.loads(text)


def rule_options(ruleset: str, t, lang: str) -> tuple[RuleOptions | None, str | None]:
    """The switches of the chosen rule set's section (defaults = SPEC's recommendation)."""
    section = SECTION_OF[ruleset]
    defaults: BaseModel = getattr(RuleOptions(), section)
    overrides = {}
    try:
        with st.expander(t("rule_options")):
            for name, field in type(defaults).model_fields.items():
                if name in FIXED_BY_RULESET.get(ruleset, ()):
                    continue
                value = _option_widget(section, name, field, getattr(defaults, name), lang)
                if value != getattr(defaults, name):
                    overrides[f"{section}.{name}"] = value
        return RuleOptions().with_overrides(overrides), None
    except (json.JSONDecodeError, RecursionError) as exc:  # RecursionError: brackets nested past Python's limit
        return None, t("bad_option", detail=explain("option_not_json", lang, f"not valid JSON ({exc})"))
    except OptionError as exc:
        return None, t("bad_option", detail=explain("option_bad_value", lang, str(exc)))


def _earthly() -> None:
    """地胡 is a win on the dealer's first discard: the dealer is the discarder."""
    if st.session_state.get("ctx-earthly") and st.session_state.get("ctx-dealer") != st.session_state.get("ctx-winner"):
        st.session_state["ctx-self-draw"] = False
        st.session_state["ctx-discarder"] = st.session_state["ctx-dealer"]


def show(draft: Draft, t, lang: str) -> HandSetup:
    st.subheader(t("context_header"))
    if "ctx-dealer" not in st.session_state:
        start_new_hand()
    ruleset = st.selectbox(
        t("ruleset"), RULESETS, key="ctx-ruleset", format_func=lambda r: pick(RULESET_NAMES[r], lang)
    )
    options, option_error = rule_options(ruleset, t, lang)

    seats = list(range(N_SEATS))
    seat_name = seat_label(state.ledger().players)
    with st.expander(t("seats_bets"), expanded=True):
        with st.container(horizontal=True, gap="small", wrap=True):
            winner = st.selectbox(t("winner"), seats, key="ctx-winner", format_func=seat_name, width=150)
            dealer = st.selectbox(t("dealer"), seats, key="ctx-dealer", format_func=seat_name, width=150)
        self_draw = st.toggle(t("self_draw"), key="ctx-self-draw")
        others = [s for s in seats if s != winner]
        discarder = None
        if not self_draw or st.session_state.get("ctx-robbing_kong"):
            if st.session_state.get("ctx-discarder") not in others:
                st.session_state["ctx-discarder"] = others[0]
            discarder = st.selectbox(t("discarder"), others, key="ctx-discarder", format_func=seat_name, width=150)
        st.caption(t("bets"))
        # four in one row on a phone (90 px each put the fourth seat on a row of its own)
        with st.container(horizontal=True, gap="small", wrap=True):
            bets = [
                st.number_input(seat_name(s), 0, MAX_BET, step=1, key=f"ctx-bet-{s}", width=BET_WIDTH) for s in seats
            ]

    with st.expander(t("situations")):
        flags = {
            name: st.checkbox(t(name), key=f"ctx-{name}", on_change=_earthly if name == "earthly" else None)
            for name in SITUATIONS
        }
        missing = None
        if ruleset == "weinan":
            guess = missing_suit_guess(draft)
            suits_key = "".join(sorted(draft.suits_present()))
            if st.session_state.get("ctx-missing-for") != suits_key:  # tiles changed: pre-fill again
                st.session_state["ctx-missing-for"] = suits_key
                st.session_state["ctx-missing"] = guess or "m"
            missing = st.selectbox(
                t("missing_suit"), list("mps"), key="ctx-missing", format_func=lambda s: pick(SUIT_NAMES[s], lang)
            )
            if guess:
                st.caption(t("missing_suit_guess", suit=pick(SUIT_NAMES[guess], lang)))

    self_drawn = (self_draw or any(flags[f] for f in SELF_DRAWN_SITUATIONS)) and not flags["robbing_kong"]
    try:
        context = Context(
            winner=winner,
            dealer=dealer,
            self_draw=self_drawn,
            discarder=None if self_drawn else discarder,
            bets=tuple(int(b) for b in bets),
            missing_suit=missing,
            **flags,
        )
    except HandError as exc:
        return HandSetup(ruleset, options, None, t("bad_context", detail=explain(exc.code, lang, str(exc))))
    return HandSetup(ruleset, options, context, option_error)
