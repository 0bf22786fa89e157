"""Find the photos to score: directories (recursively), glob patterns and single files.

A file is a candidate when its extension names an image format (any case) or its first bytes do. A candidate
whose bytes are no image (a text file named .jpg, an empty file) is still returned: it becomes an error record
rather than silently vanishing from the archive's accounting.
"""

from __future__ import annotations

import glob
from collections.abc import Iterable
from pathlib import Path

from vision.imageio import PHOTO_SUFFIXES

# ISO-BMFF brands of HEIF/HEIC stills as phones write them.
HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1", b"avif"})
SNIFF_BYTES = 16


class DiscoveryError(ValueError):
    """An input names nothing: a path that does not exist or a pattern that matches no file."""


def sniff_image_format(head: bytes) -> str | None:
    """'jpeg', 'png', 'webp', 'heif', 'gif' or 'tiff' from a file's first bytes; None for anything else."""
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return "heif"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    return None


def is_photo_candidate(path: Path) -> bool:
    if path.suffix.lower() in PHOTO_SUFFIXES:
        return True
    if path.suffix.lower() == ".json":  # sidecars and our own outputs are never photos
        return False
    try:
        with path.open("rb") as handle:
            return sniff_image_format(handle.read(SNIFF_BYTES)) is not None
    except OSError:
        return False


def _walk(directory: Path) -> Iterable[Path]:
    for path in directory.rglob("*"):
        if any(part.startswith(".") for part in path.relative_to(directory).parts):
            continue  # hidden folders (.git, .thumbnails) and dotfiles such as macOS ._ resource forks
        if path.is_file() or (path.is_symlink() and not path.exists()):  # a broken link gets its error record
            yield path


def _photos_under(directory: Path) -> set[Path]:
    return {p for p in _walk(directory) if is_photo_candidate(p)}


def _photos_matching(pattern: str) -> set[Path]:
    matches = [Path(m) for m in glob.glob(pattern, recursive=True)]
    if not matches:
        raise DiscoveryError(f"{pattern}: no such file or directory, and no file matches it as a pattern")
    photos: set[Path] = set()
    for match in matches:
        if match.is_dir():
            photos |= _photos_under(match)
        elif match.is_file() and is_photo_candidate(match):
            photos.add(match)
    if not photos:
        raise DiscoveryError(f"{pattern}: matches no photo")
    return photos


def discover(inputs: Iterable[str | Path]) -> list[Path]:
    """Every photo under the inputs, as absolute paths, sorted, each once.

    An input is a directory (searched recursively), an existing file (taken as given, whatever its name),
    or a glob pattern (``**`` recurses). An input that names nothing, or no photo, raises DiscoveryError: an
    empty or mistaken folder is as much a mistake as a pattern that matches nothing.
    """
    found: set[Path] = set()
    for item in inputs:
        path = Path(item).expanduser()
        try:
            is_dir, is_file, dangling = path.is_dir(), path.is_file(), path.is_symlink() and not path.exists()
        except PermissionError:  # a folder on the way that may not be searched
            raise DiscoveryError(f"{item}: permission denied") from None
        if dangling:
            raise DiscoveryError(f"{item}: a link to a file that does not exist")
        if is_file:
            found.add(path)
        elif is_dir:
            photos = _photos_under(path)
            if not photos:
                raise DiscoveryError(f"{item}: no photo in this folder or its subfolders (hidden ones are skipped)")
            found |= photos
        else:
            found |= _photos_matching(str(path))
    return sorted({p.resolve() if p.exists() else p.absolute() for p in found})  # a broken link keeps its name
