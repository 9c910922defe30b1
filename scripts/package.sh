#!/usr/bin/env bash
# Packs a built cabra binary as a release archive with its checksum:
#
#   scripts/package.sh BINARY TARGET VERSION DIR
#
# writes DIR/cabra-VERSION-TARGET.tar.gz, holding the directory
# cabra-VERSION-TARGET/ with cabra, LICENSE, README.md, CHANGELOG.md and the user
# docs, docs/*.md (the README, the help texts and the docs link to them
# by those paths; docs/research/ stays out), and
# DIR/cabra-VERSION-TARGET.tar.gz.sha256 in the format
# of `sha256sum` (so `sha256sum -c` or `shasum -a 256 -c` checks it), then
# prints the archive's path. The release workflow packs every binary it
# publishes with it, Linux and macOS alike (bash 3.2 is enough).
set -euo pipefail

die() { printf 'package: %s\n' "$*" >&2; exit 1; }
[[ $# -eq 4 ]] || die "usage: scripts/package.sh BINARY TARGET VERSION DIR"
bin="$1" target="$2" version="$3" dist="$4"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ -x $bin ]] || die "$bin is not an executable file"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || die "'$version' is not a version"
[[ -n $target && $target != */* ]] || die "'$target' is not a target triple"

name="cabra-$version-$target"
mkdir -p "$dist"
dist="$(cd "$dist" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/docs"
cp "$bin" "$stage/$name/cabra"
cp "$repo/LICENSE" "$repo/README.md" "$repo/CHANGELOG.md" "$stage/$name/"
cp "$repo"/docs/*.md "$stage/$name/docs/"
chmod 755 "$stage/$name/cabra" "$stage/$name/docs"
chmod 644 "$stage/$name/LICENSE" "$stage/$name/README.md" "$stage/$name/CHANGELOG.md" \
    "$stage/$name"/docs/*.md
(cd "$stage" && tar -czf "$dist/$name.tar.gz" "$name")

if command -v sha256sum >/dev/null; then
    (cd "$dist" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
else
    (cd "$dist" && shasum -a 256 "$name.tar.gz" >"$name.tar.gz.sha256")
fi
echo "$dist/$name.tar.gz"
