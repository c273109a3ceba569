#!/usr/bin/env bash
# Install (with the test extras) into .venv when needed, check the runtimes, then run the test suite.
# Extra arguments go to pytest (e.g. scripts/test.sh -k reader).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
ensure_venv "test"

# tests/test_judge_browser.py drives Debian's chromium (Playwright cannot download a browser here).
# Install it, with fonts for Arabic and Chinese, when it is missing and we may (root with apt-get);
# otherwise that test skips and says why. BOLT_NO_BROWSER=1 skips the install.
ensure_browser() {
  if [ -n "${BOLT_NO_BROWSER:-}" ] || [ -n "${BOLT_CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: no chromium and no root apt-get to install it; the browser test will be skipped" >&2
    return 0
  fi
  local t0=$SECONDS log
  log="$(mktemp -t bolt-apt.XXXXXX)"
  echo "setup: installing chromium and Noto fonts with apt-get (about a minute; log: $log)" >&2
  if DEBIAN_FRONTEND=noninteractive timeout 300 apt-get update -qq >"$log" 2>&1 &&
     DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends \
       chromium fonts-noto-core fonts-noto-cjk >>"$log" 2>&1; then
    echo "setup: chromium installed in $((SECONDS - t0)) s" >&2
  else
    echo "setup: installing chromium failed after $((SECONDS - t0)) s (see $log); the browser test will be skipped" >&2
  fi
}
ensure_browser
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
