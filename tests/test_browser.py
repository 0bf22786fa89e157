"""The app in a real browser: `streamlit run app.py` on a free localhost port, driven with Playwright through
Debian's Chromium (/usr/bin/chromium; no browser download) at a phone-sized viewport. Screenshots go to
test-artifacts/ (git-ignored)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
SAMPLE = ROOT / "mjsnap" / "app" / "samples" / "plain_win.jpg"
PHONE = {"width": 390, "height": 2400}  # a phone's width; tall so one screenshot shows the whole page
RESULT = "4 · 结果"

pytestmark = pytest.mark.slow

if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed at /usr/bin/chromium (apt-get install -y chromium; "
        "scripts/setup.sh full does it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A headless Streamlit server for this module; stopped (by its own pid) at the end."""
    port = _free_port()
    env = dict(os.environ, MJSNAP_LABELS_DIR=str(tmp_path_factory.mktemp("labels")))
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
                "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            ],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"streamlit exited with {process.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        process.terminate()
        pytest.fail(f"streamlit did not answer on {url} within 120 s: {log.read_text()[-2000:]}")
    yield url
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture
def page(server):
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="zh-CN")
        page = context.new_page()
        page.set_default_timeout(180_000)  # a shared, busy CI machine can be slow to render and screenshot
        page.goto(server)
        page.get_by_text("麻将拍照算分").wait_for(timeout=120_000)
        yield page
        browser.close()


def _screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path


def _horizontal_overflow(page) -> dict:
    """How far the page and its main column are wider than the phone's screen (0 = nothing to scroll sideways)."""
    return page.evaluate(
        """() => {
            const main = document.querySelector('[data-testid="stMainBlockContainer"]');
            return {page: document.documentElement.scrollWidth - window.innerWidth,
                    main: main ? main.scrollWidth - main.clientWidth : null};
        }"""
    )


def _click_until(target, shown, timeout: float, attempts: int = 3) -> None:
    """Click ``target`` until ``shown`` appears: on a loaded machine a click that lands while a rerun is drawn can be
    lost (1 run in 6 under load), so it is clicked again, only while what it shows has not appeared."""
    for attempt in range(attempts):
        target.click()
        try:
            shown.wait_for(timeout=timeout)
            return
        except sync_api.TimeoutError:
            if attempt == attempts - 1:
                raise


def _type_hand(page) -> None:
    """Type the same plain hand on the Score page (东 wins 5s on a discard: +18 under Shaanxi)."""
    page.get_by_text("或手动输入牌").click()
    page.get_by_label("手牌（不含赢牌）").fill("123m456m789m234s5s")
    page.get_by_label("赢牌（可空，空则列出听牌）").fill("5s")
    page.get_by_label("赢牌（可空，空则列出听牌）").press("Enter")
    page.get_by_role("button", name="用这手牌").click()


def test_typed_hand_shows_the_score(page):
    _type_hand(page)
    page.get_by_text("东 得 +18 分").wait_for(timeout=60_000)
    # the settlement table's heading; Streamlit may draw it a moment after the headline, so wait before counting
    page.get_by_text("结算", exact=True).first.wait_for(timeout=30_000)
    assert page.get_by_text("结算", exact=True).count() == 1
    page.get_by_text("规则选项", exact=True).click()  # the longest labels of the page
    page.wait_for_timeout(500)
    assert _screenshot(page, "browser_typed_hand.png").stat().st_size > 10_000
    assert _horizontal_overflow(page) == {"page": 0, "main": 0}


def test_uploaded_photo_is_read_and_scored(page):
    model = Path(os.environ.get("MJSNAP_MODEL_DIR", ROOT / "models" / "current"))
    if not (model / "meta.json").is_file():
        pytest.skip(f"no model at {model}: the photo cannot be read")
    page.locator("input[type='file']").first.set_input_files(str(SAMPLE))
    # the first photo also loads the model in the server: minutes on a busy 2-core machine
    page.get_by_text(RESULT).or_(page.get_by_text("听牌：胡哪张、得几分")).first.wait_for(timeout=480_000)
    page.wait_for_timeout(1000)  # let the last images arrive before the screenshot
    shot = _screenshot(page, "browser_photo_score.png")
    assert shot.stat().st_size > 10_000
    assert page.get_by_text("核对手牌").count() == 1
    # The score, or the reason the read hand does not score (the model's accuracy is a benchmark's business).
    scored = page.get_by_text("得 ").count() > 0
    explained = page.get_by_text("不能胡").count() + page.get_by_text("还不完整").count() > 0
    assert scored or explained


@pytest.mark.parametrize(
    ("nav", "heading"),
    [("📒 记分", "记分表"), ("🎲 骰子", "骰子：从哪里开始抓牌"), ("🀄 偎麻雀", "安乡偎麻雀 · 算息"), ("🏷 标注", "照片文件夹")],
)
def test_the_other_pages_fit_a_phone(page, nav, heading):
    page.get_by_text(nav, exact=True).click()
    page.get_by_text(heading, exact=True).first.wait_for(timeout=60_000)
    page.wait_for_timeout(500)
    _screenshot(page, f"browser_page_{heading[:2]}.png")
    assert _horizontal_overflow(page) == {"page": 0, "main": 0}


def test_page_and_language_switches_keep_the_choices_made(page):
    """The browser holds a choice as the text it shows: after a language switch the next change reset the rule set
    to Shaanxi (and the page to Score); a visit to another page reset the hand's context, or showed defaults."""
    _type_hand(page)
    page.get_by_text("东 得 +18 分").wait_for(timeout=60_000)
    page.get_by_role("combobox", name="规则").fill("西安")  # typed: a rerun closing the list cannot drop the click
    page.get_by_role("combobox", name="规则").press("Enter")
    page.get_by_text("东 得 +1 分").wait_for(timeout=60_000)
    page.get_by_text("English", exact=True).click()
    page.get_by_text("东 gets +1 points").wait_for(timeout=60_000)
    page.get_by_text("Self-drawn", exact=True).click()
    page.get_by_text("东 gets +6 points").wait_for(timeout=60_000)  # Xi'an's self-draw; Shaanxi's gives +36
    assert page.get_by_role("combobox", name="Rules").input_value() == "Xi'an"
    assert page.get_by_role("combobox", name="Sample photo").input_value() == "A kong and chows"

    page.get_by_text("📒 Ledger", exact=True).click()
    page.get_by_text("Game ledger", exact=True).wait_for(timeout=60_000)
    page.get_by_text("中文", exact=True).click()
    page.get_by_text("记分表", exact=True).wait_for(timeout=60_000)
    page.get_by_text("玩家名字", exact=True).click()
    page.get_by_label("座位 0").fill("阿明")
    page.get_by_label("座位 0").press("Enter")
    # still on the ledger page, the name typed still there. Renaming again to the same names changes nothing.
    _click_until(page.get_by_role("button", name="改名"), page.get_by_text("下一局庄家：阿明"), timeout=30_000)
    page.get_by_text("📷 算分", exact=True).click()  # the hand's context was kept, and is shown, after the visit
    page.get_by_text("阿明 得 +6 分").wait_for(timeout=60_000)
    assert page.get_by_role("combobox", name="规则").input_value() == "西安麻将"


def test_a_section_opened_after_a_notice_stays_open(page):
    """The ledger's notice goes away on the next tap; it moved everything after it, which closed the section just
    opened."""
    _type_hand(page)
    page.get_by_text("东 得 +18 分").wait_for(timeout=60_000)  # the run that draws the result has finished its
    page.wait_for_timeout(1000)  # drawing: a click on the button it is still drawing was lost once in CI (session 40)
    page.get_by_role("button", name="记入记分表").click()
    page.get_by_text("已记入第 1 局").wait_for(timeout=60_000)
    page.get_by_text("特殊情况", exact=True).click()
    page.get_by_text("海底", exact=True).click()
    page.get_by_text("已记入第 1 局").wait_for(state="detached", timeout=60_000)
    page.wait_for_timeout(1000)  # the run's last changes drawn
    assert page.get_by_role("checkbox", name="海底").is_visible()


def test_players_get_no_developer_toolbar(page):
    """.streamlit/config.toml (toolbarMode minimal): no Deploy button or developer menu on the players' page."""
    page.wait_for_timeout(1000)
    assert page.get_by_text("Deploy", exact=True).count() == 0
    assert page.get_by_test_id("stMainMenu").count() == 0


def test_the_face_pickers_labels_fit_their_buttons_on_a_phone(page):
    """Streamlit's side padding broke "1m" over two lines in a button as wide as its tile picture."""
    _type_hand(page)
    page.get_by_text("东 得 +18 分").wait_for(timeout=60_000)
    page.locator(".st-key-tile-0 button").click()
    faces = '[class*="tile-faces-"] [data-testid="stBaseButton-{}"]:visible'  # not the pictures' toolbar buttons
    buttons = page.locator(f"{faces.format('secondary')}, {faces.format('primary')}")
    buttons.first.wait_for(timeout=60_000)
    page.wait_for_timeout(1000)
    heights = {round(buttons.nth(i).bounding_box()["height"]) for i in range(buttons.count())}
    assert buttons.count() == 35 and len(heights) == 1, heights


def _drawn_text(page, selector: str) -> dict:
    """What the browser draws for an element: its own text's size and its ::after content. Waited for, as Streamlit
    may re-render the element just then and the selector find nothing for a moment."""
    return page.wait_for_function(
        """(selector) => {
            const element = document.querySelector(selector);
            return element && {size: getComputedStyle(element).fontSize,
                               after: getComputedStyle(element, '::after').content};
        }""",
        arg=selector, timeout=60_000,
    ).json_value()


@pytest.mark.parametrize(
    ("nav", "key", "button", "limits"),
    [
        (None, "uploader", '"选择照片"', '"每个文件至多 200 MB · JPG, PNG, WEBP, HEIC"'),
        ("📒 记分", "ledger-csv", '"选择 CSV 文件"', '"每个文件至多 200 MB · CSV"'),
    ],
)
def test_the_uploaders_speak_the_pages_language(page, nav, key, button, limits):
    """Streamlit writes "Upload" and "200MB per file" in English; the Chinese page draws its own words instead."""
    if nav:
        page.get_by_text(nav, exact=True).click()
    dropzone = f'.st-key-{key} [data-testid="stFileUploaderDropzone"]'
    page.locator(dropzone).wait_for(timeout=60_000)
    button_text = f'{dropzone} button [data-testid="stMarkdownContainer"] p'
    # st.html sanitizes and inserts the style rule a moment after the uploader appears (on a busy machine, later)
    with contextlib.suppress(sync_api.TimeoutError):
        page.wait_for_function("(s) => getComputedStyle(document.querySelector(s)).fontSize === '0px'", arg=button_text,
                               timeout=30_000)
    drawn_button = _drawn_text(page, button_text)
    drawn_limits = _drawn_text(page, f'{dropzone} [data-testid="stFileUploaderDropzoneInstructions"] span')
    assert drawn_button == {"size": "0px", "after": button}
    assert drawn_limits == {"size": "0px", "after": limits}


def test_a_file_the_uploader_refuses_is_said_in_the_pages_language(page, tmp_path):
    """Streamlit marks a refused file with a red chip and keeps its English reason for screen readers only."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo")
    page.locator(".st-key-uploader input[type='file']").set_input_files(str(notes))
    reason = page.locator('.st-key-uploader [data-testid="stFileChip"] [role="alert"]')
    reason.wait_for(state="attached", timeout=60_000)
    page.wait_for_function("(e) => e.getBoundingClientRect().height > 10", arg=reason.element_handle(), timeout=30_000)
    assert reason.evaluate("(e) => getComputedStyle(e, '::after').content") == (
        '"不能用这个文件：只收 JPG, PNG, WEBP, HEIC，每个至多 200 MB"')
    chip = page.locator('.st-key-uploader [data-testid="stFileChip"]').bounding_box()
    shown = reason.bounding_box()
    assert chip["y"] < shown["y"] < chip["y"] + chip["height"] and shown["x"] + shown["width"] <= 390


def test_on_a_phone_the_breakdown_needs_no_sideways_scrolling_and_a_tapped_tile_opens_beside_it(page):
    """The reasons ran past the table's right edge; the tapped tile's panel was out of sight below the hand."""
    _type_hand(page)
    page.get_by_text("东 得 +18 分").wait_for(timeout=60_000)
    scroller = page.locator('[data-testid="stDataFrame"] .dvn-scroller').first
    scroller.wait_for()
    page.wait_for_timeout(1000)
    assert scroller.evaluate("(e) => e.scrollWidth - e.clientWidth") <= 0
    # a second tap on the same tile would close its panel: tapped again only while the panel is not open
    _click_until(page.locator(".st-key-tile-0 button"), page.get_by_text("修改第 1 张"), timeout=60_000)
    page.wait_for_timeout(500)
    tile = page.locator(".st-key-tile-0 button").bounding_box()
    panel = page.get_by_text("修改第 1 张").bounding_box()
    assert 0 < panel["y"] - tile["y"] < 844  # within a phone's screen (844 px) of the tile tapped


def _picked_box(page) -> str:
    """The label page's box selector as shown: "N: class" (the value of its combobox)."""
    return page.locator('[data-testid="stSelectbox"] input').first.input_value()


def test_on_a_phone_a_tap_on_the_label_pages_photo_adds_a_box_and_a_second_tap_picks_it(page, tmp_path):
    """Boxes were chosen from a list only; a tap where no box is adds one there, a tap on a box picks it."""
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "hand.jpg").write_bytes(SAMPLE.read_bytes())
    page.get_by_text("🏷 标注", exact=True).click()
    page.get_by_label("照片文件夹").fill(str(folder))
    page.get_by_label("照片文件夹").press("Enter")
    picture = page.locator('iframe[title*="image_coordinates"]')
    picture.wait_for(timeout=120_000)
    page.wait_for_function("() => document.querySelector('iframe[title*=\"image_coordinates\"]').offsetHeight > 100",
                           timeout=60_000)
    picked = '[data-testid="stSelectbox"] input'
    page.wait_for_function(f"() => document.querySelector('{picked}')?.value.startsWith('1: ')",
                           timeout=60_000)  # the model's first box
    corner = picture.bounding_box()  # the view's corner: a tile's margin away from every box
    page.mouse.click(corner["x"] + 4, corner["y"] + 4)
    page.wait_for_function(f"() => !document.querySelector('{picked}').value.startsWith('1: ')", timeout=60_000)
    added = _picked_box(page)
    assert int(added.split(":")[0]) > 1  # a new last box, picked
    page.wait_for_timeout(1500)  # the picture is drawn again with the new box
    picture = page.locator('iframe[title*="image_coordinates"]')
    corner = picture.bounding_box()
    page.mouse.click(corner["x"] + 4, corner["y"] + 4)
    page.wait_for_timeout(3000)
    assert _picked_box(page) == added  # the tap picked the box there; no second box was added
    _screenshot(page, "label_tap.png")


def test_a_tap_on_a_tile_in_the_photo_opens_its_fix_panel(page):
    """A misread tile is easiest found on the photo: tapping it there opens the same panel as its picture."""
    model = Path(os.environ.get("MJSNAP_MODEL_DIR", ROOT / "models" / "current"))
    if not (model / "meta.json").is_file():
        pytest.skip(f"no model at {model}: the photo cannot be read")
    from mjsnap.app.draft import from_read
    from mjsnap.app.recognize import read_photo

    reading = read_photo(SAMPLE.read_bytes())  # as the server reads it
    tiles, width, height = from_read(reading.read).tiles, reading.width, reading.height  # boxes: upright photo
    page.locator("input[type='file']").first.set_input_files(str(SAMPLE))
    picture = page.locator('iframe[title*="image_coordinates"]')
    picture.wait_for(timeout=480_000)
    page.wait_for_function("() => document.querySelector('iframe[title*=\"image_coordinates\"]').offsetHeight > 100",
                           timeout=60_000)
    page.wait_for_timeout(1000)
    shown = picture.bounding_box()
    number = 3
    x1, y1, x2, y2 = tiles[number - 1].box
    page.mouse.click(shown["x"] + (x1 + x2) / 2 / width * shown["width"],
                     shown["y"] + (y1 + y2) / 2 / height * shown["height"])
    page.get_by_text(f"修改第 {number} 张").wait_for(timeout=60_000)
