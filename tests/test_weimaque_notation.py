"""偎麻雀 cards and hand notation: the 80-card deck, ASCII and Chinese forms, errors naming the token and column,
the 5th-copy limit, and a property: any laid-out hand parses back from its canonical text and never has two
multipliers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.weimaque import ALL_CARDS, Card, Group, SetType, WeimaqueHand, WeimaqueInputError, parse_hand, score
from scoring.weimaque.cards import COPIES_PER_CARD
from scoring.weimaque.scorer import multiplier_items
from scoring.weimaque.situation import XiSituation
from scoring.weimaque.options import WeimaqueOptions

H10 = "煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 陆柒捌, 雀 九九"


def test_deck():
    assert len(ALL_CARDS) * COPIES_PER_CARD == 80
    assert "".join(c.zh for c in ALL_CARDS if c.red) == "二七十贰柒拾"
    assert [c.code for c in ALL_CARDS[:3]] == ["1", "2", "3"] and ALL_CARDS[-1].code == "10B"


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("吃 1 2 3", [Card(False, 1), Card(False, 2), Card(False, 3)]),
        ("吃 一二三", [Card(False, 1), Card(False, 2), Card(False, 3)]),
        ("chi 8B 9b 10B", [Card(True, 8), Card(True, 9), Card(True, 10)]),
        ("吃捌玖拾", [Card(True, 8), Card(True, 9), Card(True, 10)]),
        ("吃 壹貳參", [Card(True, 1), Card(True, 2), Card(True, 3)]),  # traditional forms
        ("碰: 10 十 10", [Card(False, 10)] * 3),
    ],
)
def test_card_notation(text, cards):
    assert list(parse_hand(text).groups[0].cards) == cards


def test_ascii_and_chinese_hands_are_the_same():
    ascii_text = "wei 3 3 3; wei 4 4 4; peng 5 5 5; peng 6 6 6; chi 1B 2B 3B; chi 6B 7B 8B; pair 9 9*"
    assert parse_hand(ascii_text).text() == H10 + "*"
    assert parse_hand(H10.replace(", ", "\n")).text() == H10
    assert parse_hand("麻雀 九九, 偎 三三三, 栽 四四四, 刀 五五五").text() == "雀 九九, 煨 三三三, 煨 四四四, 砍 五五五"


@pytest.mark.parametrize(
    ("text", "code", "token", "column", "words"),
    [
        ("吃 1 2 11", "bad_token", "11", 7, "column 7 (group 1), card 3: '11' is not a card"),
        ("碰 7x 7 7", "bad_token", "7x", 3, "'7x' is not a card"),
        ("碰 0 0 0", "bad_token", "0", 3, "'0' is not a card"),
        ("碰 五五五, 吃 零一二", "bad_token", "零", 10, "column 10 (group 2), card 1: '零' is not a card"),
        ("五五五", "missing_type", "五", 1, "give its type first"),
        ("碰 五五 煨 五", "bad_token", "煨", 6, "type '煨' must open its group"),
        ("碰 *五五五", "bad_token", "*", 3, "'*' must follow a card"),
        ("碰 五**五五", "bad_token", "*", 5, "'*' must follow a card"),
        ("碰", "empty_group", "碰", 1, "group 1 (碰) has no cards"),
        ("", "empty_hand", None, None, "the hand is empty"),
        ("碰 五*五五, 雀 九*九", "several_winning_cards", None, None, "2 cards are marked *"),
        ("碰 五*五*五", "several_winning_cards", "*", 6, "column 6 (group 1): a second card is marked *"),
        ("碰 五五五, 吃 三四五, 吃 五六七", "too_many_copies", "五", None, "5 copies of 五 (5)"),
        ("碰 1B 1B 1B, 吃 壹贰叁, 雀 壹 1b", "too_many_copies", "壹", None, "6 copies of 壹 (1B)"),
    ],
)
def test_notation_errors(text, code, token, column, words):
    with pytest.raises(WeimaqueInputError) as info:
        parse_hand(text)
    assert info.value.code == code
    assert info.value.token == token and info.value.column == column
    assert words in str(info.value)


def test_trailing_separators_and_marked_winning_card():
    hand = parse_hand("碰 五五五,, 雀 九 九* ,")
    assert len(hand.groups) == 2
    assert hand.win_group.type is SetType.PAIR and hand.win_group.win_card == Card(False, 9)


# --- property: random laid-out hands ----------------------------------------------------------------------------

TRIPLET_TYPES = [SetType.PENG, SetType.WEI, SetType.KAN]


@st.composite
def laid_out_hands(draw):
    groups = []
    for _ in range(6):
        big = draw(st.booleans())
        if draw(st.booleans()):
            card = Card(big, draw(st.integers(1, 10)))
            groups.append(Group(draw(st.sampled_from(TRIPLET_TYPES)), (card,) * 3))
        else:
            low = draw(st.integers(1, 8))
            groups.append(Group(SetType.CHI, tuple(Card(big, low + i) for i in range(3))))
    pair = Card(draw(st.booleans()), draw(st.integers(1, 10)))
    groups.append(Group(SetType.PAIR, (pair, pair)))
    return groups


@settings(max_examples=300, deadline=None)
@given(laid_out_hands())
def test_random_hands(groups):
    try:
        hand = WeimaqueHand(tuple(groups))
    except WeimaqueInputError as exc:
        assert exc.code == "too_many_copies"
        return
    assert parse_hand(hand.text()) == hand
    assert len(multiplier_items(XiSituation(hand, WeimaqueOptions()))) <= 1
    res = score(hand)
    assert res.reason in (None, "hard_xi_below_10")
    assert res.valid == (res.hard_xi >= 10)
    if res.valid:
        assert res.total_xi >= res.hard_xi
