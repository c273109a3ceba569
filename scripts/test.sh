#!/usr/bin/env bash
# Install (with the test extras) into .venv when needed, check the runtimes, then run the test suite.
# Extra arguments go to pytest (e.g. scripts/test.sh -k reader).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
ensure_venv "test"
export HF_HUB_OFFLINE=1
cd "$REPO"
"$VENV/bin/bolt" doctor
set +e
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests; the suite must not be empty" >&2
  exit 1
fi
exit "$status"
