#!/usr/bin/env bash
# Installs what the browser tests need on a fresh Debian machine: Debian's
# Chromium and Playwright for Python (which drives that Chromium; its own
# browser download is not used). Fails if either cannot be installed.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
if ! python3 -c 'import playwright' >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check playwright
fi
chromium --version
python3 -c 'import importlib.metadata as m; print("playwright", m.version("playwright"))'
