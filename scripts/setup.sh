#!/usr/bin/env bash
# Create .venv and install mjsnap. `setup.sh` = light runtime (app, CLI, batch, ONNX/OpenVINO inference);
# `setup.sh full` = everything the test suite needs (training extra, test tools, Ray, Chromium for the browser test).
set -euo pipefail
cd "$(dirname "$0")/.."
profile="${1:-runtime}"
python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
pins=(-c constraints.txt)  # the versions the suite passed with; MJSNAP_UNPINNED=1 takes the newest releases
[ "${MJSNAP_UNPINNED:-}" = 1 ] && pins=()
pip() { .venv/bin/python -m pip --disable-pip-version-check -q "$@" "${pins[@]}"; }
if [ "$profile" = full ]; then
  # torch first: it pins the torchvision pair that works on this machine (see models/MODEL_CARD.md).
  pip install "torch==2.14.1" "torchvision==0.29.1"
  pip install -e ".[train,test,ray]"
  if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null) \
        || echo "setup: could not install Debian's chromium (and CJK fonts for its screenshots); the browser test will skip" >&2
    else
      echo "setup: chromium is not installed and this is not root; the browser test will skip" >&2
    fi
  fi
else
  pip install -e .
fi
