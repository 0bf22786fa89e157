"""The 偎麻雀 app page through Streamlit's AppTest: the opening hand, card pickers, the winning-card choice, text
input with its errors, a switch, and the page in the app's navigation."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app_texts import assert_no_english, english_words, shown_texts  # noqa: E402
from mjsnap.app.weimaque_page import sample_hand  # noqa: E402
from scoring.weimaque import score  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def page_script(lang: str) -> None:
    from mjsnap.app.i18n import tr
    from mjsnap.app.weimaque_page import show

    show(tr(lang), lang)


def open_page(lang: str) -> AppTest:
    at = AppTest.from_function(page_script, args=(lang,), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def page() -> AppTest:
    return open_page("zh")


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def test_opening_hand_matches_the_scorer(page):
    expected = score(sample_hand())
    assert page.success[0].value == f"总息 {expected.total_xi}"
    assert expected.total_xi == 69  # 硬息 19 + 印胡 10 + 卓胡 20 + 单吊 20
    assert list(page.dataframe[0].value.iloc[:, 0]) == [item.zh for item in expected.items]
    assert "没有息的结算规则" in page.info[0].value


def test_pickers_change_the_hand(page):
    page.selectbox(key="wmq-win").set_value(-1)  # no winning card: 单吊 goes
    rerun(page)
    assert page.success[0].value == "总息 49"
    page.selectbox(key="wmq-type-0").select_index(1)  # 碰柒 -> 煨柒: +1 硬息
    rerun(page)
    assert page.success[0].value == "总息 50"
    page.selectbox(key="wmq-card-6-PAIR-0").set_value("9")  # 麻雀 九九: no 转弯 (-2)
    rerun(page)
    assert page.success[0].value == "总息 48"


@pytest.mark.parametrize(
    ("lang", "too_many", "not_a_card"),
    [
        ("zh", "手牌有误：一种牌最多 4 张：“柒”", "手牌有误：有一处不是牌（牌写作 1-10 或 一…十，大字 1B-10B 或 壹…拾）：“11”"),
        ("en", "The hand is not valid: 7 copies of 柒 (7B)", "The hand is not valid: column 14 (group 2), card 3: '11' is "
         "not a card"),
    ],
)
def test_five_copies_and_typed_errors_in_the_page_language(lang, too_many, not_a_card):
    page = open_page(lang)
    page.selectbox(key="wmq-card-1-WEI-0").set_value("7B")  # a second 柒 triplet: 7 copies of 柒
    rerun(page)
    assert page.error[0].value.startswith(too_many)
    page.toggle(key="wmq-use-text").set_value(True)
    rerun(page)
    page.text_input(key="wmq-text").set_value("碰 柒柒柒, 吃 1 2 11")
    rerun(page)
    assert page.error[0].value.startswith(not_a_card)


def test_a_chinese_page_says_everything_in_chinese():
    page = open_page("zh")
    page.selectbox(key="wmq-win").set_value(-1)  # no winning card: a warning
    page.checkbox(key="wmq-sqs").check()  # 手牵手 without a house value: a decision and a warning
    rerun(page)
    assert page.caption[-1].value == ("注意：手牵手原文暂不明：不计（可在规则选择里设自定息数）；"
                                      "没有指定揭牌：单吊和背靠背没有检查")
    assert any(c.value == "规则选择：手牵手 自定息数（0 = 不算）：不算" for c in page.caption)
    assert any(c.value.startswith("硬息：") for c in page.caption)
    assert list(page.dataframe[0].value.iloc[:3, 3]) == ["碰出的三张", "四张一样的牌都在手里", "自己摸齐的三张"]
    assert_no_english(page)
    page.toggle(key="wmq-use-text").set_value(True)
    rerun(page)
    page.text_input(key="wmq-text").set_value("煨 三三三, 雀 九九")
    rerun(page)
    assert page.error[0].value == "不能胡：胡牌要 6 句加 1 个麻雀"
    assert_no_english(page)


def test_an_english_page_keeps_the_engines_sentences():
    page = open_page("en")
    page.selectbox(key="wmq-win").set_value(-1)
    rerun(page)
    assert page.caption[-1].value == "note: no winning card marked with *: 单吊 and 背靠背 were not checked"
    assert page.dataframe[0].value.iloc[0, 3] == "碰 柒柒柒 (red)"
    assert any(english_words(text) for text in shown_texts(page))  # the check below the Chinese page can fail


def test_switch_decides_a_typed_hand(page):
    page.toggle(key="wmq-use-text").set_value(True)
    rerun(page)
    page.text_input(key="wmq-text").set_value("煨 三三三, 煨 四四四, 碰 五五五, 碰 六六六, 吃 壹贰叁, 吃 二七十, 雀 九九")
    rerun(page)
    assert "二七十" in page.error[0].value
    page.toggle(key="wmq-opt-erqishi").set_value(True)
    rerun(page)
    assert page.success[0].value == "总息 10"


def test_page_is_in_the_app_navigation(tmp_path, monkeypatch):
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.radio(key="page").set_value("weimaque")
    rerun(at)
    assert at.subheader[0].value == "安乡偎麻雀 · 算息"
