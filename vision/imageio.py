"""Read a photo the way a person sees it: any common format, EXIF orientation applied, one downscale at most.

Phone photos are 12-50 MP while the detector looks at ~640 px, so a large photo is reduced once, at decode time
where the format allows it (JPEG's DCT scaling), to a working size. ``LoadedImage`` keeps the original size so
detections can be reported in pixels of the original (EXIF-rotated) photo.
"""

from __future__ import annotations

import io
import math
import os
import stat
import sys
import unicodedata
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np
import pillow_heif
from PIL import Image, ImageChops, ImageOps, UnidentifiedImageError

pillow_heif.register_heif_opener()  # HEIC/HEIF through Pillow; libheif applies the file's own rotation
# Pillow refuses images over 2 x MAX_IMAGE_PIXELS as decompression bombs (default: 179 MP), which turns away a 200 MP
# phone photo (16320 x 12240). JPEGs decode at 1/8 of that here; 130 MP lets up to 260 MP through, and the warning
# Pillow gives above 130 MP is silenced where we decode.
Image.MAX_IMAGE_PIXELS = 130_000_000

SUPPORTED = "JPEG, PNG, WebP or HEIC"
# File suffixes of the photos read here (Pillow and pillow-heif): batch, labelling and label import take these.
PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".jpe", ".png", ".webp", ".heic", ".heif", ".avif", ".gif", ".tif",
                            ".tiff", ".bmp"})
# Of those, the ones ultralytics' dataloader also trains on (its IMG_FORMATS), so that evaluation and crop cutting
# see the same images of a dataset folder as training does.
DATASET_SUFFIXES = PHOTO_SUFFIXES - {".jpe", ".gif"}
# The Pillow formats of those suffixes (MPO: a JPEG with extra pictures, as phones write). Only these are opened:
# a file of another format named like a photo (PostScript, which Pillow hands to Ghostscript, an icon, a TGA) is
# not a photo, and a damaged photo is not mistaken for one of them.
PHOTO_FORMATS = ("JPEG", "MPO", "PNG", "WEBP", "HEIF", "AVIF", "GIF", "TIFF", "BMP")
# the first bytes of each, to tell a photo Pillow refuses (damaged, or a kind it cannot decode: a 12-bit JPEG) from
# a file that is no photo at all
_SIGNATURES = ((b"\xff\xd8\xff", "JPEG"), (b"\x89PNG\r\n\x1a\n", "PNG"), (b"GIF87a", "GIF"), (b"GIF89a", "GIF"),
               (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"), (b"II+\x00", "TIFF"), (b"MM\x00+", "TIFF"), (b"BM", "BMP"))
# Longest side kept after loading: ample detail for 640-px detection and tile crops; a 12 MP JPEG decodes at 1/2.
WORKING_MAX_SIDE = 1600
_ORIENTATION_TAG = 0x0112
_TRANSPOSE_METHODS = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                      4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270,
                      7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}

ImageSource = str | Path | bytes | BinaryIO
# ultralytics, once imported, wraps Image.open so that an unrecognised file makes it install a HEIF plugin (pip, or
# an ImportError offline). pillow-heif is registered above, so the wrapped original is what we call.
_ULTRALYTICS_PATCH = "ultralytics.utils.patches"


class ImageReadError(ValueError):
    """The file is missing, is not an image, or is damaged. The message names the file and the reason."""


@dataclass(frozen=True)
class LoadedImage:
    pixels: np.ndarray  # (h, w, 3) uint8 RGB at working size
    width: int  # of the original photo after EXIF orientation
    height: int

    def __post_init__(self) -> None:
        if self.pixels.ndim != 3 or self.pixels.shape[2] != 3 or self.pixels.dtype != np.uint8:
            raise ValueError(f"LoadedImage needs (h, w, 3) uint8 pixels, got {self.pixels.shape} {self.pixels.dtype}")
        if self.width < 1 or self.height < 1 or min(self.pixels.shape[:2]) < 1:
            raise ValueError("LoadedImage needs at least one pixel")

    @property
    def to_original(self) -> tuple[float, float]:
        """(x, y) factors from working pixels to original pixels (>= 1 when the photo was reduced)."""
        return self.width / self.pixels.shape[1], self.height / self.pixels.shape[0]

    @classmethod
    def from_array(cls, rgb: np.ndarray) -> LoadedImage:
        """An RGB (or grey) uint8 array taken as the original photo itself: no EXIF to apply, no downscale."""
        rgb = np.asarray(rgb)
        if rgb.ndim == 2:
            rgb = np.repeat(rgb[:, :, None], 3, axis=2)
        return cls(np.ascontiguousarray(rgb), rgb.shape[1], rgb.shape[0])


def _name(source: ImageSource) -> str:
    """The file as a message names it: on one line (a newline or other control character in a file name is written
    as Python writes it in a string, \\n)."""
    if not isinstance(source, (str, Path)):
        return "<image bytes>"
    name = str(source)
    if any(unicodedata.category(char) == "Cc" for char in name):
        name = "".join(repr(char)[1:-1] if unicodedata.category(char) == "Cc" else char for char in name)
    return name


def _reason(exc: BaseException) -> str:
    """An exception's words on one line (libheif's end with a newline), or its type when it has none."""
    return " ".join(str(exc).split()) or type(exc).__name__


_formats: tuple[str, ...] = ()


def _photo_formats() -> tuple[str, ...]:
    """PHOTO_FORMATS that this Pillow can open, in Pillow's own order of trying them (HEIF before AVIF)."""
    global _formats
    if not _formats:
        Image.init()  # registers every plugin, so that each format is known by name
        _formats = tuple(fmt for fmt in Image.ID if fmt in PHOTO_FORMATS)
    return _formats


def _pil_open(handle: str | Path | BinaryIO) -> Image.Image:
    if getattr(Image.open, "__module__", None) == _ULTRALYTICS_PATCH:
        return sys.modules[_ULTRALYTICS_PATCH]._image_open(handle, formats=_photo_formats())
    return Image.open(handle, formats=_photo_formats())


def _pipe_bytes(path: Path) -> bytes:
    """All of a named pipe (a FIFO, or /dev/stdin fed by a pipe). Opened without waiting for a writer: a pipe nobody
    writes to reads as empty instead of blocking the command forever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)  # a writer there: wait for all it writes
        with os.fdopen(fd, "rb") as pipe:
            fd = -1
            return pipe.read()
    finally:
        if fd >= 0:
            os.close(fd)


def _unidentified(name: str, handle: str | Path | BinaryIO) -> ImageReadError:
    """The error for a file Pillow could not identify: a photo it refuses (damaged, or a kind it does not decode,
    as a 12-bit JPEG), with that format's reason, or no photo at all."""
    unreadable = ImageReadError(f"{name}: not a readable image (expected {SUPPORTED})")
    try:
        with open(handle, "rb") if isinstance(handle, (str, Path)) else nullcontext(handle) as file:
            file.seek(0)
            prefix = file.read(16)
            fmt = next((fmt for signature, fmt in _SIGNATURES if prefix.startswith(signature)), None)
            if prefix[:4] == b"RIFF" and prefix[8:12] == b"WEBP":
                fmt = "WEBP"
            if fmt is None:
                return unreadable
            detail = ""
            if fmt in Image.OPEN:
                file.seek(0)
                try:  # the format's own reason for refusing it, which Pillow's open keeps to itself
                    with _pillow_quiet():
                        Image.OPEN[fmt][0](file, "")
                except (SyntaxError, ValueError) as exc:  # its words (an IndexError's or struct.error's are not)
                    detail = f": {_reason(exc)}"
                except Exception:  # noqa: BLE001, S110 - refused for a reason it does not put into words
                    pass
    except (OSError, ValueError):  # a stream that cannot be read again
        return unreadable
    shown = "WebP" if fmt == "WEBP" else fmt
    return ImageReadError(f"{name}: not a readable image (expected {SUPPORTED}; a damaged or unsupported "
                          f"{shown}{detail})")


def _open(source: ImageSource) -> Image.Image:
    name = _name(source)
    if isinstance(source, (str, Path)):
        path = Path(source)
        handle: str | Path | BinaryIO
        try:
            if not path.exists():
                raise ImageReadError(f"{name}: no such file")
            if path.is_dir():
                raise ImageReadError(f"{name}: is a directory, not an image")
            handle = io.BytesIO(_pipe_bytes(path)) if stat.S_ISFIFO(path.stat().st_mode) else path
        except PermissionError:  # a folder on the way that may not be searched
            raise ImageReadError(f"{name}: permission denied") from None
        except OSError as exc:  # gone since, or a file system error
            raise ImageReadError(f"{name}: cannot be read ({_reason(exc)})") from None
    elif isinstance(source, bytes):
        handle = io.BytesIO(source)
    else:
        handle = source
    with _decoding(name):
        try:
            with _pillow_quiet():
                return _pil_open(handle)
        except UnidentifiedImageError:
            raise _unidentified(name, handle) from None


@contextmanager
def _decoding(name: str):
    """What a decoder raises for a file, as that file's ImageReadError: RuntimeError is the AVIF / HEIF decoders'
    word for a damaged file, and any other (a ValueError for a cut-off PNG header, an EOFError, a struct.error) is
    also the file's doing."""
    try:
        yield
    except ImageReadError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageReadError(f"{name}: image too large to read safely ({_reason(exc)})") from None
    except PermissionError:
        raise ImageReadError(f"{name}: permission denied") from None
    except MemoryError:
        raise ImageReadError(f"{name}: not enough memory to read it") from None
    except Exception as exc:  # noqa: BLE001
        raise ImageReadError(f"{name}: damaged or truncated image ({_reason(exc)})") from None


@contextmanager
def _pillow_quiet():
    """Pillow's warnings we have answered: the decompression-bomb one above MAX_IMAGE_PIXELS (the limit is ours) and
    its notes on skipped metadata tags (nothing to act on)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        warnings.simplefilter("ignore", UserWarning)
        yield


def _cmyk_ink_as_stored(image: Image.Image) -> Image.Image:
    """A CMYK JPEG with its ink the right way round. Pillow decodes every CMYK JPEG as Adobe's inverted ink, but only
    a file with Adobe's APP14 marker stores it so: one without the marker stores plain ink (browsers tell the two
    apart by that marker), which Pillow reads as a negative, a light photo all but black."""
    if image.format in ("JPEG", "MPO") and image.mode == "CMYK" and "adobe" not in image.info:
        return ImageChops.invert(image)
    return image


def upright(image: Image.Image) -> Image.Image:
    """The image turned as its EXIF orientation says (and a CMYK JPEG's ink as stored: _cmyk_ink_as_stored).
    Damaged EXIF (a tag of the wrong type, a cut-off block) makes Pillow's exif_transpose fail while rewriting the
    EXIF; the pixels are fine, so they are turned without it, or left as stored when not even the orientation can be
    read. Pixels that cannot be decoded raise (OSError), as Image.load does: only the EXIF is forgiven."""
    with _pillow_quiet():
        image.load()  # outside the forgiving part: a failed load would leave a black or half picture behind it
        image = _cmyk_ink_as_stored(image)
        try:
            return ImageOps.exif_transpose(image)
        except Exception:  # noqa: BLE001 - any EXIF parser failure; the pixels do not depend on it
            pass
        try:
            orientation = image.getexif().get(_ORIENTATION_TAG, 1)
        except Exception:  # noqa: BLE001
            orientation = 1
    method = _TRANSPOSE_METHODS.get(orientation) if isinstance(orientation, int) else None
    return image.transpose(method) if method is not None else image


def _upright_or_same(image: Image.Image) -> Image.Image:
    """upright(image), without the copy it makes of a photo that needs no turn (a full-size one is large)."""
    with _pillow_quiet():
        try:
            orientation = image.getexif().get(_ORIENTATION_TAG, 1)
        except Exception:  # noqa: BLE001 - upright says what damaged EXIF means
            orientation = None
    try:
        if orientation is not None and _TRANSPOSE_METHODS.get(orientation) is None:
            return _cmyk_ink_as_stored(image)
    except TypeError:  # an orientation that cannot be looked up (a list): upright's to judge
        pass
    return upright(image)


def _to_rgb(image: Image.Image) -> Image.Image:
    """RGB pixels; transparent areas become white (a tile photo never means black there)."""
    # Transparent: an alpha channel, or a colour key: a palette entry, or the one colour of an RGB, grey or 1-bit
    # PNG that its tRNS chunk marks transparent (as PNG optimizers store a cut-out whose alpha is all or nothing)
    if image.mode in ("RGBA", "LA", "PA") or (image.mode in ("P", "RGB", "L", "1") and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    if image.mode == "RGB":
        return image
    if image.mode.startswith("I;16") or image.mode in ("I", "F"):
        # 16-bit / float grey: stretch to 8 bits instead of clipping everything to white. A float image's NaN and
        # infinite pixels are left out of the stretch (one would make every pixel NaN, a black picture).
        grey = np.asarray(image, dtype=np.float32)
        finite = np.isfinite(grey)
        values = grey[finite]
        low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 0.0)
        grey = np.clip(np.where(finite, grey, np.where(np.isposinf(grey), high, low)), low, high)
        grey8 = ((grey - low) * (255.0 / (high - low)) if high > low else np.zeros_like(grey)).astype(np.uint8)
        return Image.fromarray(grey8).convert("RGB")
    return image.convert("RGB")


def _reduce(rgb: np.ndarray, max_side: int | None) -> np.ndarray:
    height, width = rgb.shape[:2]
    if max_side is None or max(width, height) <= max_side:
        return np.ascontiguousarray(rgb)
    factor = max_side / max(width, height)
    size = (max(round(width * factor), 1), max(round(height * factor), 1))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)  # area averaging: no aliasing on glyph strokes


def read_image(source: ImageSource, max_side: int | None = WORKING_MAX_SIDE) -> LoadedImage:
    """Decode ``source`` upright, reduced so its longer side is at most ``max_side`` (None keeps full size).

    Raises ImageReadError for a missing, non-image or damaged file.
    """
    image = _open(source)
    with image, _decoding(_name(source)):
        stored_w, stored_h = image.size
        drafted = image.size
        if max_side is not None and max(stored_w, stored_h) > max_side:
            # JPEG can decode straight to 1/2, 1/4 or 1/8 size, never smaller than the requested box.
            factor = max_side / max(stored_w, stored_h)
            image.draft("RGB", (math.ceil(stored_w * factor), math.ceil(stored_h * factor)))
            drafted = image.size
        with _pillow_quiet():
            # Decoded here, where a failure is the file's: Pillow raises for damaged data only the first time,
            # and a later load (of the EXIF, or of the pixels) would hand over a half-black picture
            image.load()
            pixels = _to_rgb(_upright_or_same(image))
            upright_size = pixels.size
            if max_side is not None and max(upright_size) >= 2 * max_side:
                # A large photo decoded at full size (any format but JPEG): averaged down in Pillow to at least
                # max_side first, so that no full-size copy is made on the way to numpy (a 200 MP PNG took
                # 2.8 GB at the peak, 0.85 GB so)
                pixels = pixels.reduce(max(upright_size) // max_side)
            rgb = np.asarray(pixels)
    # The original's upright size: the stored one, turned a quarter when the upright pixels came out turned (read
    # from the pixels, since some formats, TIFF in Pillow 13, report the size already upright)
    turned = drafted[0] != drafted[1] and upright_size == (drafted[1], drafted[0])
    width, height = (stored_h, stored_w) if turned else (stored_w, stored_h)
    return LoadedImage(_reduce(rgb, max_side), width, height)


@contextmanager
def opened_photo(source: ImageSource) -> Iterator[Image.Image]:
    """The photo opened by Pillow, for code that works on Pillow's image itself (a dataset's sizes, hashes and
    crops). What reading it raises, at the open or in the block (no photo, a decompression bomb, truncated data),
    is one ImageReadError naming the file, as read_image says it: keep only the reading in the block."""
    image = _open(source)
    with image, _decoding(_name(source)), _pillow_quiet():
        yield image


def load_image(source: ImageSource) -> np.ndarray:
    """The full-size upright photo as an (h, w, 3) uint8 RGB array; raises ImageReadError."""
    return read_image(source, max_side=None).pixels


def from_pil(image: Image.Image, max_side: int | None = WORKING_MAX_SIDE) -> LoadedImage:
    """A Pillow image already in memory, treated like a file: EXIF orientation applied, reduced once."""
    rgb = np.asarray(_to_rgb(upright(image)))
    return LoadedImage(_reduce(rgb, max_side), rgb.shape[1], rgb.shape[0])
