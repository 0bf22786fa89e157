"""The Streamlit app (``app.py``) in small modules: one per page or panel, plus the pure logic they use
(ledger, correction draft, i18n) which imports no Streamlit and is tested on its own."""
