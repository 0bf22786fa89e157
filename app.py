"""mjsnap app: `streamlit run app.py` (or `bash scripts/app.sh`). The pages live in mjsnap/app/."""

from mjsnap.app.main import run

run()
