#!/usr/bin/env bash
# The whole loop on the bundled sample: index, run three systems, validate, assess, score, compare, report.
# Installs into .venv first when needed. Extra arguments go to 'bolt demo' (e.g. --workdir DIR).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
ensure_venv ""
export HF_HUB_OFFLINE=1
exec "$VENV/bin/bolt" demo "$@"
