#!/usr/bin/env bash
# Tests of the release workflow's helper scripts, run by .ci/run (seconds):
#   - scripts/release-notes.sh on a made-up CHANGELOG (a middle section, the
#     last one before the link definitions, a missing and an empty one, a
#     leading v) and on the real CHANGELOG.md's first release;
#   - scripts/package.sh on a stand-in binary: the archive's name and
#     contents, and its .sha256 file checked with sha256sum -c.
# Prints one line per check and "N passed, N failed"; exits 1 on a failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # NAME EXPECTED ACTUAL
    if [[ $2 == "$3" ]]; then
        passed=$((passed + 1)); printf 'ok    %s\n' "$1"
    else
        failed=$((failed + 1)); printf 'FAIL  %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"
    fi
}
fails() { # NAME COMMAND...: the command must exit non-zero
    local name="$1"; shift
    if "$@" >/dev/null 2>&1; then
        failed=$((failed + 1)); printf 'FAIL  %s (it succeeded)\n' "$name"
    else
        passed=$((passed + 1)); printf 'ok    %s\n' "$name"
    fi
}

# --- release-notes.sh --------------------------------------------------------
notes="$repo/scripts/release-notes.sh"
cat >"$tmp/CHANGELOG.md" <<'EOF'
# Changelog

## [Unreleased]

- Nothing yet.

## [0.10.0] - 2027-01-02

Not 0.1.0.

## [0.2.0] - 2026-12-01

### Added

- A thing.

  Its second paragraph.

### Fixed

- Another thing.


## [0.1.0] - 2026-11-21

The first version.

[Unreleased]: https://example.org/compare/v0.2.0...HEAD
[0.2.0]: https://example.org/v0.2.0
[0.1.0]: https://example.org/v0.1.0
EOF
cat >"$tmp/CHANGELOG-empty.md" <<'EOF'
## [0.3.0] - 2027-02-01

## [0.2.0] - 2026-12-01

- Something.
EOF
export CHANGELOG="$tmp/CHANGELOG.md"
check "release-notes: a middle section, blank lines inside kept, around dropped" \
    "$(printf '### Added\n\n- A thing.\n\n  Its second paragraph.\n\n### Fixed\n\n- Another thing.')" \
    "$("$notes" 0.2.0)"
check "release-notes: v0.2.0 is 0.2.0" "$("$notes" 0.2.0)" "$("$notes" v0.2.0)"
check "release-notes: the last section stops at the link definitions" \
    "The first version." "$("$notes" 0.1.0)"
check "release-notes: 0.10.0 is not 0.1.0" "Not 0.1.0." "$("$notes" 0.10.0)"
fails "release-notes: a version with no section fails" "$notes" 0.3.0
fails "release-notes: not a version fails" "$notes" Unreleased
CHANGELOG="$tmp/CHANGELOG-empty.md"
fails "release-notes: an empty section fails" "$notes" 0.3.0
unset CHANGELOG
real="$("$notes" 0.1.0)"
check "release-notes: CHANGELOG.md's 0.1.0 is its first release" \
    "The first version (commit e15c673)" "${real%%:*}"

# --- package.sh --------------------------------------------------------------
printf '#!/bin/sh\necho stand-in\n' >"$tmp/cabra"
chmod +x "$tmp/cabra"
archive="$("$repo/scripts/package.sh" "$tmp/cabra" x86_64-unknown-linux-gnu 9.8.7 "$tmp/dist")"
check "package: the archive's path" "$tmp/dist/cabra-9.8.7-x86_64-unknown-linux-gnu.tar.gz" "$archive"
docs="$(for f in "$repo"/docs/*.md; do echo "cabra-9.8.7-x86_64-unknown-linux-gnu/docs/${f##*/}"; done)"
check "package: the archive's contents" \
    "$(printf '%s\n' cabra-9.8.7-x86_64-unknown-linux-gnu/ cabra-9.8.7-x86_64-unknown-linux-gnu/{CHANGELOG.md,LICENSE,README.md,cabra,docs/} "$docs" | sort)" \
    "$(tar -tzf "$archive" | sort)"
check "package: sha256sum -c accepts the .sha256 file" \
    "cabra-9.8.7-x86_64-unknown-linux-gnu.tar.gz: OK" \
    "$(cd "$tmp/dist" && sha256sum -c cabra-9.8.7-x86_64-unknown-linux-gnu.tar.gz.sha256)"
mkdir "$tmp/unpacked"
tar -xzf "$archive" -C "$tmp/unpacked"
check "package: the packed binary runs" "stand-in" "$("$tmp/unpacked/cabra-9.8.7-x86_64-unknown-linux-gnu/cabra")"
fails "package: a version that is no version fails" \
    "$repo/scripts/package.sh" "$tmp/cabra" x86_64-unknown-linux-gnu main "$tmp/dist"

echo "$passed passed, $failed failed"
((failed == 0))
