#!/usr/bin/env bash
# Set up everything and run the whole test suite (the same command .ci/run calls).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh full
export YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0
exec .venv/bin/python -m pytest "$@"
