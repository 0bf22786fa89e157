"""Streamlit's camera input writes its button ("Take Photo", then "Uploading..." and "Clear photo") and its request
for the camera ("This app would like to use your camera. Learn how to allow access.") in English whatever the
page's language, and has no setting for any of them; a style rule scoped to one camera input puts the page's own
words there instead, as uploader.py does for the file uploader."""

from __future__ import annotations

import streamlit as st

from mjsnap.app.uploader import css_string

LIVE = '[data-testid="stCameraInputWebcamComponent"]'  # the camera's picture, before a photo is taken
BUTTON = '[data-testid="stCameraInputButton"]'
TAKEN = f'[data-testid="stCameraInput"] > {BUTTON}'  # the button under a photo taken: clears it
ASK = f"{LIVE} p"  # shown instead of the picture while the browser has not let the page use the camera


def camera_words(t, key: str) -> str:
    """The style rule for the camera input keyed ``key``."""
    scope = f".st-key-{key}"
    words = "font-size: 0.875rem; white-space: normal"
    # the original text stays in the page (font size 0) so the button keeps its size and screen readers a label
    return (
        f"<style>{scope} {BUTTON}, {scope} {ASK}, {scope} {ASK} a {{font-size: 0}}"
        f"{scope} {ASK} a {{margin-left: 0.25rem}}"
        f"{scope} {LIVE} {BUTTON}::after {{content: {css_string(t('camera_take'))}; {words}}}"
        # while the photo uploads the button holds the bare word; after, an icon and the word in a span (the words go
        # in the span too: after it, they broke onto a line of their own)
        f"{scope} {TAKEN}:not(:has(> span))::after {{content: {css_string(t('camera_uploading'))}; {words}}}"
        f"{scope} {TAKEN} > span::after {{content: {css_string(t('camera_clear'))}; {words}}}"
        f"{scope} {ASK}::before {{content: {css_string(t('camera_ask'))}; {words}}}"
        f"{scope} {ASK} a::after {{content: {css_string(t('camera_how'))}; {words}}}"
        "</style>"
    )


def camera_input(t, label: str, key: str, **kwargs):
    """``st.camera_input`` with its button and its request for the camera in the page's language."""
    st.html(camera_words(t, key))
    return st.camera_input(label, key=key, **kwargs)
