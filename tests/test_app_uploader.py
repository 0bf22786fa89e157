"""The style rule that puts the page's own words on Streamlit's file uploader (the browser test checks it drawn)."""

import pytest

from mjsnap.app.i18n import tr
from mjsnap.app.uploader import uploader_words


@pytest.mark.parametrize(
    ("lang", "types", "button", "words"),
    [
        ("zh", ["jpg", "jpeg", "png", "heic", "heif"], "upload_button",
         ['"选择照片"', '"每个文件至多 200 MB · JPG, PNG, HEIC"', '"不能用这个文件：只收 JPG, PNG, HEIC，每个至多 200 MB"']),
        ("en", ["csv"], "upload_csv_button",
         ['"Choose a CSV file"', '"Up to 200 MB a file · CSV"', '"This file cannot be used: CSV only, up to 200 MB a file"']),
    ],
)
def test_the_rule_names_the_button_and_the_limits_in_the_pages_language(lang, types, button, words):
    rule = uploader_words(tr(lang), "some-key", types, button)
    for word in words:
        assert f"content: {word}" in rule


def test_the_rule_touches_only_its_own_uploader():
    rule = uploader_words(tr("en"), "ledger-csv", ["csv"], "upload_csv_button")
    selectors = [part.split("{")[0] for part in rule.removeprefix("<style>").split("}") if "{" in part]
    assert selectors and all(
        all(one.strip().startswith(".st-key-ledger-csv ") for one in selector.split(",")) for selector in selectors
    )


def test_a_quote_in_the_words_cannot_end_the_css_string():
    def t(key, **values):
        return 'say "hi" \\ bye'

    assert 'content: "say \\"hi\\" \\\\ bye"' in uploader_words(t, "k", ["csv"], "upload_button")
