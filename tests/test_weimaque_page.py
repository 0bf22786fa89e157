"""The 偎麻雀 app page through Streamlit's AppTest: the opening hand, card pickers, the winning-card choice, text
input with its errors, a switch, and the page in the app's navigation."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from mjsnap.app.weimaque_page import sample_hand  # noqa: E402
from scoring.weimaque import score  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def page_script() -> None:
    from mjsnap.app.i18n import tr
    from mjsnap.app.weimaque_page import show

    show(tr("zh"), "zh")


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_function(page_script, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


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


def test_five_copies_and_typed_errors(page):
    page.selectbox(key="wmq-card-1-WEI-0").set_value("7B")  # a second 柒 triplet: 7 copies of 柒
    rerun(page)
    assert "copies of 柒" in page.error[0].value
    page.toggle(key="wmq-use-text").set_value(True)
    rerun(page)
    page.text_input(key="wmq-text").set_value("碰 柒柒柒, 吃 1 2 11")
    rerun(page)
    assert "'11' is not a card" in page.error[0].value


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
