"""Every relative link in the project's documents leads somewhere: the file exists, and a #section is a heading of it.

README.md, docs/ and models/ point at each other and at benchmark results; a moved or renamed file or heading
would otherwise leave a reader at a dead end without any test noticing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([REPO / "README.md", *(REPO / "docs").glob("*.md"), *(REPO / "models").glob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))


def anchors(document: Path) -> set[str]:
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    return {anchor(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def links(document: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", document.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("7. How many photos does a new tile set need (measured)", "7-how-many-photos-does-a-new-tile-set-need-measured"),
        ("Detecting tiles: `mjsnap detect`", "detecting-tiles-mjsnap-detect"),
        ("Issue 3's targets", "issue-3s-targets"),
        ("The hold-out proxy: tile sets the classifiers never saw", "the-hold-out-proxy-tile-sets-the-classifiers-never-saw"),
    ],
)
def test_anchor_is_githubs(heading, expected):
    assert anchor(heading) == expected


def test_documents_are_found():
    assert REPO / "README.md" in DOCUMENTS and REPO / "models" / "MODEL_CARD.md" in DOCUMENTS


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(REPO)))
def test_relative_links_resolve(document):
    broken = []
    for target in links(document):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, section = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.is_relative_to(REPO):
            continue  # ../shared and the like: not part of a fresh clone
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif section and file.suffix == ".md" and section not in anchors(file):
            broken.append(f"{target}: no heading #{section} in {file.relative_to(REPO)}")
    assert not broken, f"{document.relative_to(REPO)}: " + "; ".join(broken)
