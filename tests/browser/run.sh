#!/usr/bin/env bash
# End-to-end tests of `cabra serve` in a real headless Chromium, driven by
# Playwright for Python (see tests/browser/README.md). Builds the release
# binary, starts `cabra serve --port 0`, runs the tests, and always stops
# the server. Screenshots go to target/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/cabra"
mkdir -p target/screenshots
log=$(mktemp)
"$bin" serve --port 0 --bind 127.0.0.1 --threads 2 >"$log" 2>&1 &
pid=$!
cleanup() {
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -f "$log"
}
trap cleanup EXIT
url=""
for _ in $(seq 100); do
    url=$(head -n 1 "$log")
    [[ $url == http://* ]] && break
    sleep 0.1
done
if [[ $url != http://* ]]; then
    echo "browser tests: cabra serve did not print its address:" >&2
    cat "$log" >&2
    exit 1
fi
status=0
python3 tests/browser/test_page.py "$url" "$bin" || status=1
python3 tests/browser/test_screens.py "$url" "$bin" || status=1
(cd tests/browser && python3 test_first_use.py "$url" "$bin") || status=1
(cd tests/browser && python3 test_coach.py "$url" "$bin") || status=1
exit "$status"
