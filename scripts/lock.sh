#!/usr/bin/env bash
# Refresh constraints.txt: install everything (`setup.sh full`) unpinned into a new venv and record what pip chose.
# Run the test suite with the new pins (bash scripts/test.sh) before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d /tmp/mjsnap-lock.XXXXXX)
work=$venv/repo
git worktree add -q --detach "$work" HEAD
trap 'git worktree remove --force "$work"; rm -rf "$venv"' EXIT
MJSNAP_UNPINNED=1 bash "$work/scripts/setup.sh" full
head -n 3 constraints.txt > "$venv/constraints.txt"  # keep the header comment
"$work/.venv/bin/python" -m pip freeze --exclude-editable --exclude mjsnap >> "$venv/constraints.txt"
mv "$venv/constraints.txt" constraints.txt
echo "constraints.txt: $(grep -c '==' constraints.txt) pins; now run bash scripts/test.sh"
