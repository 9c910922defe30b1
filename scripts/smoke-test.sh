#!/usr/bin/env bash
# Runs a built cabra binary as a user would, for the release workflow's
# builds on Linux, macOS and Windows (Git Bash), before they are packed:
#
#   scripts/smoke-test.sh BINARY
#
#   - `cabra --help` and `cabra --version` (which must name Cargo.toml's
#     version);
#   - `cabra bench --seconds 1`;
#   - a game on standard input (not a terminal): one move of ours, the
#     engine's answer, then `quit`
#     (printf 'L E180 110\nquit\n' | cabra play --iterations 100 --threads 1 --seed 1).
# Exits non-zero at the first that fails (bash 3.2 is enough).
set -euo pipefail

die() { printf 'smoke-test: %s\n' "$*" >&2; exit 1; }
say() { printf '\n== %s\n' "$*"; }
[[ $# -eq 1 ]] || die "usage: scripts/smoke-test.sh BINARY"
bin="$1"
[[ -f $bin && -x $bin ]] || die "$bin is not an executable file"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$repo/Cargo.toml" | head -n1)"

say "cabra --help"
"$bin" --help
say "cabra --version"
out="$("$bin" --version)"
printf '%s\n' "$out"
[[ $out == *" $version"* ]] || die "--version does not name $version"
say "cabra bench --seconds 1"
"$bin" bench --seconds 1
say "cabra play: a move and quit on standard input"
out="$(printf 'L E180 110\nquit\n' | "$bin" play --iterations 100 --threads 1 --seed 1 2>&1)" \
    || { printf '%s\n' "$out"; die "cabra play failed"; }
printf '%s\n' "$out"
# tr: a Windows build may end its lines with CR LF.
out="$(tr -d '\r' <<<"$out")"
grep -q '^1\. player 1 plays L E180 110' <<<"$out" || die "cabra play did not play the move L E180 110"
grep -q '^2\. player 2 plays ' <<<"$out" || die "the engine did not answer in cabra play"
say "smoke test passed: $bin"
