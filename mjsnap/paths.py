"""Where mjsnap finds its own files and the optional ../shared folder."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = Path(os.environ.get("MJSNAP_MODELS", REPO_ROOT / "models"))


def repo_relative(path: Path) -> str:
    """A path as reports quote it: relative to the checkout when inside it, else absolute."""
    path = Path(path).resolve()
    return str(path.relative_to(REPO_ROOT)) if path.is_relative_to(REPO_ROOT) else str(path)


def shared_dir() -> Path | None:
    """../shared beside the checkout (or $MJSNAP_SHARED); None when it is absent."""
    candidate = Path(os.environ.get("MJSNAP_SHARED", REPO_ROOT.parent / "shared"))
    return candidate if candidate.is_dir() else None


def shared_tileart() -> Path | None:
    """../shared/tileart, the art sets synthetic photos draw faces from; None when ../shared is absent."""
    shared = shared_dir()
    return None if shared is None else shared / "tileart"


def require_shared(*parts: str) -> Path:
    """A path inside ../shared, or FileNotFoundError saying what is missing and how to point at it."""
    base = shared_dir()
    if base is None:
        raise FileNotFoundError(
            f"../shared is not present beside {REPO_ROOT}; set MJSNAP_SHARED to the shared folder to use it"
        )
    path = base.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    return path


def output_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written as a file (a folder is there, or a file where a folder on its way must be
    made); None when it can. Commands ask before any work so a bad path never leaves half their output behind."""
    path = Path(path)
    if path.is_dir():
        return f"{path} is a folder, not a file"
    return _blocked_folder_problem(path)


def output_dir_problem(path: Path) -> str | None:
    """Why ``path`` cannot be used (or made) as a folder; None when it can."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        return f"{path} is a file, not a folder"
    return _blocked_folder_problem(path)


def _blocked_folder_problem(path: Path) -> str | None:
    """A file standing where a missing folder on the way to ``path`` would have to be made."""
    for folder in path.parents:  # nearest first; the first that exists decides
        if folder.exists():
            return None if folder.is_dir() else f"{path} cannot be made: {folder} is a file, not a folder"
    return None
