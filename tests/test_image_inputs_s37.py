"""Unusual photo files through vision.imageio and `mjsnap detect` / `mjsnap read`: every file that cannot be read is a
clear ImageReadError on one line (never another exception, a hang, or a half-black picture), and odd but valid
photos read as they look. Every file is made here, in tmp_path."""

from __future__ import annotations

import io
import json
import os
import struct
import threading
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from mjsnap.cli import app
from vision.imageio import WORKING_MAX_SIDE, ImageReadError, read_image, upright

ORIENTATION_TAG = 0x0112


def scene(width: int = 96, height: int = 64) -> np.ndarray:
    """Gradients and a red top-left block: any flip, turn or black band shows."""
    ys, xs = np.mgrid[0:height, 0:width]
    image = np.stack([xs * 255 // (width - 1), ys * 255 // (height - 1), np.full_like(xs, 90)], axis=2)
    image[: height // 4, : width // 4] = (230, 20, 20)
    return image.astype(np.uint8)


def encode(pixels: np.ndarray, fmt: str, orientation: int | None = None, **options) -> bytes:
    extra = {}
    if orientation is not None:
        exif = Image.Exif()
        exif[ORIENTATION_TAG] = orientation
        extra["exif"] = exif.tobytes()
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels)).save(buffer, format=fmt, **extra, **options)
    return buffer.getvalue()


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_with(ihdr: bytes, idat: bytes = b"", exif: bytes | None = None) -> bytes:
    extra = chunk(b"eXIf", exif) if exif is not None else b""
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def corrupt_idat_png(orientation: int | None = None) -> bytes:
    """A PNG whose compressed pixels are damaged in the middle (bit rot): the decoder fails half way."""
    pixels = scene(200, 120)
    raw = b"".join(b"\x00" + row.tobytes() for row in pixels)
    data = bytearray(zlib.compress(raw))
    data[len(data) // 2 : len(data) // 2 + 40] = bytes(40)
    exif = None
    if orientation is not None:
        tags = Image.Exif()
        tags[ORIENTATION_TAG] = orientation
        exif = tags.tobytes()
    return png_with(struct.pack(">IIBBBBB", 200, 120, 8, 2, 0, 0, 0), bytes(data), exif)


def jpeg_with_precision(bits: int) -> bytes:
    """A JPEG whose frame header says 12-bit samples (as medical and some camera JPEGs): Pillow decodes 8 only."""
    data = bytearray(encode(scene(), "JPEG", quality=90))
    frame = data.find(b"\xff\xc0")
    data[frame + 4] = bits
    return bytes(data)


def other_format(fmt: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), "red").save(buffer, format=fmt)
    return buffer.getvalue()


# --- files that cannot be read: an ImageReadError naming the file, on one line ---------------------------------------

@pytest.mark.parametrize(
    ("data", "message"),
    [
        # a PNG header cut short: Pillow's PNG reader raised ValueError, which escaped as a traceback
        (png_with(b"\x00\x00\x00\x10\x00"), "damaged or truncated image (Truncated IHDR chunk)"),
        # damaged pixel data: read as a picture with a black half, because the second load hides the first's error
        (corrupt_idat_png(), "damaged or truncated image"),
        (corrupt_idat_png(orientation=6), "damaged or truncated image"),
        # a JPEG of a kind Pillow does not decode: said to be one, with Pillow's reason
        (jpeg_with_precision(12), "a damaged or unsupported JPEG: cannot handle 12-bit layers"),
        # files of formats that are no photo, named like one: refused (PostScript would be handed to Ghostscript)
        (other_format("EPS"), "not a readable image (expected JPEG, PNG, WebP or HEIC)"),
        (other_format("ICO"), "not a readable image (expected JPEG, PNG, WebP or HEIC)"),
        (other_format("TGA"), "not a readable image (expected JPEG, PNG, WebP or HEIC)"),
        (other_format("PPM"), "not a readable image (expected JPEG, PNG, WebP or HEIC)"),
    ],
    ids=["short-png-header", "corrupt-png-data", "corrupt-png-data-rotated", "12-bit-jpeg", "eps", "ico", "tga",
         "ppm"],
)
@pytest.mark.parametrize("max_side", [WORKING_MAX_SIDE, 100, None])
def test_a_file_that_cannot_be_read_is_an_image_read_error(tmp_path: Path, data: bytes, message: str,
                                                           max_side: int | None) -> None:
    path = tmp_path / "photo.png"
    path.write_bytes(data)
    with pytest.raises(ImageReadError) as error:
        read_image(path, max_side=max_side)
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("failure", [ValueError("bad header"), EOFError(), struct.error("unpack requires 4 bytes"),
                                     IndexError("list index out of range"), KeyError("tile"),
                                     RuntimeError("Invalid input: Unexpected end of file\n(points to 444)\n")],
                         ids=lambda exc: type(exc).__name__)
@pytest.mark.parametrize("stage", ["open", "load"])
def test_any_decoder_failure_is_a_damaged_image_on_one_line(tmp_path: Path, monkeypatch, failure: Exception,
                                                            stage: str) -> None:
    import vision.imageio as imageio

    path = tmp_path / "photo.webp"
    path.write_bytes(encode(scene(), "WEBP"))
    if stage == "open":
        def failing_open(handle):
            raise failure
        monkeypatch.setattr(imageio, "_pil_open", failing_open)
    else:
        def failing_load(self):
            raise failure
        monkeypatch.setattr(Image.Image, "load", failing_load)
        monkeypatch.setattr(type(Image.open(io.BytesIO(path.read_bytes()))), "load", failing_load)
    with pytest.raises(ImageReadError, match="photo.webp: damaged or truncated image") as error:
        read_image(path)
    assert "\n" not in str(error.value)


def test_a_decoder_out_of_memory_is_said(tmp_path: Path, monkeypatch) -> None:
    import vision.imageio as imageio

    def no_memory(handle):
        raise MemoryError

    monkeypatch.setattr(imageio, "_pil_open", no_memory)
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff")
    with pytest.raises(ImageReadError, match="photo.jpg: not enough memory to read it"):
        read_image(path)


def test_upright_raises_for_damaged_pixels_instead_of_forgiving_them() -> None:
    # its callers (label page, label import, evaluation, crops) catch OSError for a damaged photo
    with Image.open(io.BytesIO(corrupt_idat_png(orientation=6))) as image, pytest.raises(OSError):
        upright(image)


@pytest.mark.parametrize("name", ["new\nline.jpg", "tab\there.jpg", "bell\x07.jpg"])
def test_a_file_name_with_control_characters_is_named_on_one_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("not a photo")
    with pytest.raises(ImageReadError) as error:
        read_image(path)
    message = str(error.value)
    assert "\n" not in message and "\t" not in message and "\x07" not in message
    assert message.startswith(str(tmp_path)) and repr(name)[1:-1] in message


# --- a named pipe: read when someone writes to it, an error (never a hang) when nobody does --------------------------

def _read_in_thread(path: Path, timeout: float = 20.0):
    result: dict = {}

    def run():
        try:
            result["image"] = read_image(path)
        except Exception as exc:  # noqa: BLE001
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"reading {path} blocked"
    return result


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_nobody_writes_to_is_an_error_not_a_hang(tmp_path: Path) -> None:
    pipe = tmp_path / "photo.jpg"
    os.mkfifo(pipe)
    result = _read_in_thread(pipe)
    assert isinstance(result.get("error"), ImageReadError)
    assert "photo.jpg: not a readable image" in str(result["error"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_photo_written_into_a_named_pipe_is_read(tmp_path: Path) -> None:
    pipe = tmp_path / "photo.png"
    os.mkfifo(pipe)
    data = encode(scene(), "PNG")
    writer_ready = threading.Event()

    def write():  # as a shell pipe does: open for writing before the reader comes, write, close a while later
        fd = os.open(pipe, os.O_RDWR)  # (read-write: opening does not wait for a reader)
        with os.fdopen(fd, "wb") as out:
            out.write(data)  # a PNG this small fits the pipe's buffer
            out.flush()
            writer_ready.set()
            time.sleep(1.0)

    threading.Thread(target=write, daemon=True).start()
    assert writer_ready.wait(10)
    result = _read_in_thread(pipe)
    assert "error" not in result, result.get("error")
    np.testing.assert_array_equal(result["image"].pixels, scene())


# --- odd but valid photos read as they look ---------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_float_image_with_nan_or_infinite_pixels_is_stretched_not_black(bad: float) -> None:
    grey = np.tile(np.linspace(0.0, 1.0, 50, dtype=np.float32), (6, 1))
    grey[0, 0] = bad
    buffer = io.BytesIO()
    Image.fromarray(grey, "F").save(buffer, format="TIFF")
    pixels = read_image(buffer.getvalue()).pixels[:, :, 0]
    assert pixels[1, 0] == 0 and pixels[1, -1] == 255 and 100 < pixels[1, 25] < 155


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("fmt", ["PNG", "TIFF", "WEBP"])
def test_a_large_photo_decoded_at_full_size_is_reduced_once_and_upright(orientation: int, fmt: str) -> None:
    # formats without JPEG's reduced decoding are averaged down in Pillow before numpy; size and turn must hold
    upright_pixels = np.asarray(Image.fromarray(scene(60, 40)).resize((4000, 2600), Image.Resampling.NEAREST))
    stored = {1: lambda a: a, 2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
              5: lambda a: a.transpose(1, 0, 2), 6: lambda a: np.rot90(a, 1),
              7: lambda a: a[::-1, ::-1].transpose(1, 0, 2), 8: lambda a: np.rot90(a, -1)}[orientation](upright_pixels)
    extra = {"lossless": True} if fmt == "WEBP" else {}
    loaded = read_image(encode(stored, fmt, orientation, **extra))
    assert (loaded.width, loaded.height) == (4000, 2600)
    assert loaded.pixels.shape == (1040, WORKING_MAX_SIDE, 3)
    reference = np.asarray(Image.fromarray(upright_pixels).resize((WORKING_MAX_SIDE, 1040), Image.Resampling.BOX))
    assert np.abs(loaded.pixels.astype(int) - reference.astype(int)).mean() < 3.0


# --- the commands: a bad file among good ones is one clear line, the others still run ---------------------------------

@pytest.fixture()
def odd_files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.png"
    good.write_bytes(encode(scene(320, 200), "PNG"))
    files = {"short-header": png_with(b"\x00\x00\x00\x10\x00"), "corrupt-data": corrupt_idat_png(6),
             "eps": other_format("EPS")}
    paths = {"good": good}
    for name, data in files.items():
        paths[name] = tmp_path / f"{name}.jpg"
        paths[name].write_bytes(data)
    if hasattr(os, "mkfifo"):
        paths["pipe"] = tmp_path / "pipe.jpg"
        os.mkfifo(paths["pipe"])
    return paths


def test_detect_reports_each_unreadable_file_on_its_line_and_runs_the_rest(tiny_model: Path,
                                                                           odd_files: dict[str, Path]) -> None:
    order = [*(path for name, path in odd_files.items() if name != "good"), odd_files["good"]]
    result = CliRunner().invoke(app, ["detect", *map(str, order), "--json", "--model", str(tiny_model)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(path) for path in order]
    for line in lines[:-1]:
        assert set(line) == {"image", "error"} and line["error"].startswith(line["image"] + ": ")
    assert (lines[-1]["width"], lines[-1]["height"]) == (320, 200)


@pytest.mark.parametrize("name", ["short-header", "corrupt-data", "eps", "pipe"])
def test_read_gives_a_one_line_error_and_exit_2(tiny_model: Path, odd_files: dict[str, Path], name: str) -> None:
    if name not in odd_files:
        pytest.skip("named pipes are POSIX")
    result = CliRunner().invoke(app, ["read", str(odd_files[name]), "--json", "--model", str(tiny_model)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith(f"error: {odd_files[name]}: ") and result.stderr.count("\n") == 1
