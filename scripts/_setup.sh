# Sourced by scripts/demo.sh and scripts/test.sh: make .venv and install the toolkit into it.
# Installs torch 2.13.0 (CPU) first, because an unpinned torch pulls gigabytes of CUDA packages.
# A second run finds the install stamp and skips straight through (seconds).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${BOLT_VENV:-$REPO/.venv}"
PY="${PYTHON:-python3}"

ensure_venv() {
  local extras="${1:-}"
  local spec="."
  [ -n "$extras" ] && spec=".[$extras]"
  if [ ! -x "$VENV/bin/python" ]; then
    echo "setup: creating $VENV" >&2
    "$PY" -m venv "$VENV"
  fi
  local stamp="$VENV/.bolt-install-stamp"
  local hash want
  hash="$(cat "$REPO/pyproject.toml" | sha256sum | cut -c1-16)"
  want="$hash-${extras:-none}"
  # An install with extras also satisfies a plain one (demo.sh after test.sh): any stamp of this
  # pyproject.toml will do when no extras are asked for.
  if [ -f "$stamp" ] && { grep -qx -- "$want" "$stamp" || { [ -z "$extras" ] && grep -q -- "^$hash-" "$stamp"; }; }; then
    return 0
  fi
  echo "setup: installing into $VENV (torch 2.13.0 CPU first; a few minutes on a new machine)" >&2
  local t0=$SECONDS
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet "torch==2.13.0" >&2
  (cd "$REPO" && "$VENV/bin/python" -m pip install --quiet -e "$spec") >&2
  echo "$want" > "$stamp"
  echo "setup: installed in $((SECONDS - t0)) s" >&2
}
