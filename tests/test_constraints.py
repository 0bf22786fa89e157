"""constraints.txt pins every package pyproject.toml asks for, at a version the requirement admits: a fresh install
(scripts/setup.sh) gets the versions the suite last passed with, not whatever was released since."""
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def pins() -> dict[str, str]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version, f"not an exact pin: {line!r}"
            found[canonicalize_name(name)] = version
    return found


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    return [Requirement(r) for r in listed]


@pytest.mark.parametrize("requirement", requirements(), ids=str)
def test_every_requirement_is_pinned_at_a_version_it_admits(requirement):
    version = pins().get(canonicalize_name(requirement.name))
    assert version is not None, f"{requirement.name} is not in constraints.txt: run scripts/lock.sh"
    assert requirement.specifier.contains(version, prereleases=True), (
        f"constraints.txt pins {requirement.name}=={version}, which {requirement} does not admit")


def test_setup_installs_with_the_constraints():
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert "-c constraints.txt" in setup and "MJSNAP_UNPINNED" in setup
