"""Streamlit's file uploader writes "Upload", "200MB per file" and its refusal of a file ("text/plain files are not
allowed", "File must be 200.0MB or smaller") in English whatever the page's language, and has no setting for any
of them; a style rule scoped to one uploader puts the page's own words there instead."""

from __future__ import annotations

import streamlit as st

DROPZONE = '[data-testid="stFileUploaderDropzone"]'
BUTTON_TEXT = f'{DROPZONE} button [data-testid="stMarkdownContainer"] p'
LIMITS_TEXT = f'{DROPZONE} [data-testid="stFileUploaderDropzoneInstructions"] span'
REFUSAL_TEXT = '[data-testid="stFileChip"] [role="alert"]'  # under a refused file's name: wrong kind, too large
SAME_KIND = {"JPEG": "JPG", "HEIF": "HEIC"}  # named once, so the line fits a phone


def css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def uploader_words(t, key: str, types: list[str], button: str) -> str:
    """The style rule for the uploader keyed ``key`` that accepts ``types`` (file extensions); ``button`` is the
    catalogue key of its button's word."""
    kinds = ", ".join(dict.fromkeys(SAME_KIND.get(kind.upper(), kind.upper()) for kind in types))
    mb = st.get_option("server.maxUploadSize")
    limits = t("upload_limits", mb=mb, kinds=kinds)
    refused = t("upload_refused", mb=mb, kinds=kinds)  # one sentence for both refusals: CSS cannot tell them apart
    scope = f".st-key-{key}"
    # the original text stays in the page (font size 0) so the button keeps its height and screen readers a label
    return (
        f"<style>{scope} {BUTTON_TEXT}, {scope} {LIMITS_TEXT}, {scope} {REFUSAL_TEXT} {{font-size: 0}}"
        f"{scope} {BUTTON_TEXT}::after {{content: {css_string(t(button))}; font-size: 0.875rem}}"
        f"{scope} {LIMITS_TEXT}::after {{content: {css_string(limits)}; font-size: 0.875rem; white-space: normal}}"
        # Streamlit keeps the refusal for screen readers only (a red chip, no words): shown here, under the chip
        f'{scope} [data-testid="stFileChip"]:has([role="alert"]) {{flex-wrap: wrap}}'
        f"{scope} {REFUSAL_TEXT} {{position: static; clip: auto; width: auto; height: auto; overflow: visible;"
        " flex-basis: 100%; order: 1}"
        f"{scope} {REFUSAL_TEXT}::after {{content: {css_string(refused)}; font-size: 0.875rem; white-space: normal}}"
        "</style>"
    )


def file_uploader(t, label: str, types: list[str], key: str, button: str = "upload_button", **kwargs):
    """``st.file_uploader`` with its button and limits in the page's language."""
    st.html(uploader_words(t, key, types, button))
    return st.file_uploader(label, type=types, key=key, **kwargs)
