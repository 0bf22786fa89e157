#!/usr/bin/env bash
# Set up the light runtime and start the app on the shipped model (http://localhost:8501).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/streamlit run app.py "$@"
