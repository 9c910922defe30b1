#!/usr/bin/env bash
# Prints the notes of one version from CHANGELOG.md: the body of its
# `## [VERSION]` section (up to the next `## ` heading or the link
# definitions at the end), without the heading itself and without leading
# and trailing blank lines. The release workflow makes them the GitHub
# Release's text.
#
#   scripts/release-notes.sh VERSION          (e.g. 0.2.0; a leading v is dropped)
#
# Fails if CHANGELOG.md has no such section or the section is empty.
# CHANGELOG env var: another file than the repository's CHANGELOG.md.
set -euo pipefail

die() { printf 'release-notes: %s\n' "$*" >&2; exit 1; }
[[ $# -eq 1 ]] || die "usage: scripts/release-notes.sh VERSION"
version="${1#v}"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]] || die "'$1' is not a version"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
changelog="${CHANGELOG:-$repo/CHANGELOG.md}"
[[ -f $changelog ]] || die "no $changelog"

notes="$(awk -v version="$version" '
    # "## [0.1.0] - 2026-11-21" or "## [0.1.0]": the section starts.
    /^## / {
        if (found) exit
        heading = $0
        sub(/^## +\[/, "", heading)
        if (substr(heading, 1, length(version) + 1) == version "]") { found = 1; next }
    }
    # The link definitions after the last section end it too.
    found && /^\[[^]]+\]: / { exit }
    found { print }
' "$changelog")"
# Drop leading and trailing blank lines (the $(...) above took the trailing ones).
notes="$(sed '/./,$!d' <<<"$notes")"
[[ -n $notes ]] || die "$changelog has no (or an empty) section ## [$version]"
printf '%s\n' "$notes"
