#!/usr/bin/env bash
# Tests of the release workflow's helper scripts, run by .ci/run (seconds):
#   - scripts/release-notes.sh on a made-up CHANGELOG (a middle section, the
#     last one before the link definitions, a missing and an empty one, a
#     leading v) and on the real CHANGELOG.md's first release;
#   - scripts/release-version.sh: v0.3.0 a release, v0.3.0-rc.1 a
#     pre-release, a tag that is not Cargo.toml's version refused, and one
#     with entries left under CHANGELOG's [Unreleased] refused;
#   - scripts/package.sh on a stand-in binary: the archive's name and
#     contents, and its .sha256 file checked with sha256sum -c; that packing
#     twice gives the same checksum (.tar.gz and a Windows .zip), with the
#     entries' owners, dates, modes and order fixed;
#   - scripts/image-context.sh: the Containerfile's build context laid out
#     from those archives, checked against their .sha256 files;
#   - that release.yml builds everything with its pinned RUST_TOOLCHAIN, and
#     that the Containerfile compiles nothing;
#   - the crate's package (cargo package --list): at most 250 files, none of
#     the integration tests, examples or CI files, all that src/ embeds.
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

# --- release-version.sh ------------------------------------------------------
rv="$repo/scripts/release-version.sh"
printf '[package]\nname = "cabra"\nversion = "0.3.0"\n\n[dependencies]\nx = { version = "1.0.0" }\n' >"$tmp/final.toml"
printf '[package]\nname = "cabra"\nversion = "0.3.0-rc.1"\n' >"$tmp/rc.toml"
printf '# Changelog\n\n## [Unreleased]\n\n## [0.3.0] - 2026-12-03\n\n- A change.\n\n[0.3.0]: https://example.org\n' >"$tmp/released.md"
printf '# Changelog\n\n## [Unreleased]\n\n### Added\n\n- Not released yet.\n\n## [0.3.0] - 2026-12-03\n\n- A change.\n' >"$tmp/pending.md"
export CHANGELOG="$tmp/released.md"
check "release-version: v0.3.0 is a release" "$(printf 'version=0.3.0\nprerelease=false')" \
    "$(CARGO_TOML="$tmp/final.toml" "$rv" v0.3.0)"
check "release-version: v0.3.0-rc.1 is a pre-release" "$(printf 'version=0.3.0-rc.1\nprerelease=true')" \
    "$(CARGO_TOML="$tmp/rc.toml" "$rv" v0.3.0-rc.1)"
fails "release-version: a tag that is not Cargo.toml's version fails" env CARGO_TOML="$tmp/final.toml" "$rv" v0.3.0-rc.1
fails "release-version: a tag without its v fails" env CARGO_TOML="$tmp/final.toml" "$rv" 0.3.0
fails "release-version: a tag with +BUILD fails" env CARGO_TOML="$tmp/final.toml" "$rv" v0.3.0+1
fails "release-version: entries left under [Unreleased] fail" \
    env CARGO_TOML="$tmp/final.toml" CHANGELOG="$tmp/pending.md" "$rv" v0.3.0
unset CHANGELOG
# The repository itself: its own version is taggable exactly when its
# [Unreleased] section is empty (today it is not: v0.2.0 on this commit
# would ship unreleased work as 0.2.0).
own="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n1)"
if awk '/^## +\[Unreleased\]/{i=1;next} /^## /{i=0} i&&NF&&!/^\[/{f=1} END{exit !f}' "$repo/CHANGELOG.md"; then
    fails "release-version: the repository's v$own refused while [Unreleased] has entries" "$rv" "v$own"
else
    check "release-version: the repository's own version" "version=$own" "$("$rv" "v$own" | head -n1)"
fi

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
fails "package: a version with build metadata fails (no image tag can hold a +)" \
    "$repo/scripts/package.sh" "$tmp/cabra" x86_64-unknown-linux-gnu 1.2.3+build.4 "$tmp/dist"

# Reproducible: the same files packed again, with other times and another
# listing order, give the same bytes; every entry is dated
# SOURCE_DATE_EPOCH and owned by 0:0.
export SOURCE_DATE_EPOCH=1767225600 # 2026-01-01 00:00:00 UTC
first="$("$repo/scripts/package.sh" "$tmp/cabra" aarch64-unknown-linux-gnu 0.3.0-rc.1 "$tmp/rep1")"
check "package: a pre-release's archive name" \
    "$tmp/rep1/cabra-0.3.0-rc.1-aarch64-unknown-linux-gnu.tar.gz" "$first"
touch -d '2027-06-01 12:00' "$tmp/cabra"
sleep 1
second="$("$repo/scripts/package.sh" "$tmp/cabra" aarch64-unknown-linux-gnu 0.3.0-rc.1 "$tmp/rep2")"
check "package: packed twice, the .tar.gz has the same checksum" \
    "$(cut -d' ' -f1 "$first.sha256")" "$(cut -d' ' -f1 "$second.sha256")"
check "package: the .tar.gz's entries: 0/0, dated SOURCE_DATE_EPOCH, fixed modes, in name order" \
    "$(printf 'drwxr-xr-x 0/0 2026-01-01 00:00 %s\n' cabra-0.3.0-rc.1-aarch64-unknown-linux-gnu/ | head -n1)" \
    "$(TZ=UTC tar -tvzf "$first" | head -n1 | awk '{print $1, $2, $4, $5, $6}')"
check "package: no other owner, date or mode in the .tar.gz" \
    "" "$(TZ=UTC tar -tvzf "$first" | awk '$2 != "0/0" || $4 != "2026-01-01" || $5 != "00:00" || ($1 != "-rw-r--r--" && $1 != "drwxr-xr-x" && $1 != "-rwxr-xr-x")')"
check "package: the .tar.gz's entries are in name order" \
    "$(tar -tzf "$first" | LC_ALL=C sort)" "$(tar -tzf "$first")"
check "package: gzip stored no name or time" "00000000" \
    "$(od -An -tx1 -j4 -N4 "$first" | tr -d ' \n')"

# Windows: a .zip with cabra.exe, reproducible too.
cp "$tmp/cabra" "$tmp/cabra.exe"
zip1="$("$repo/scripts/package.sh" "$tmp/cabra.exe" x86_64-pc-windows-msvc 9.8.7 "$tmp/zip1")"
check "package: a Windows target makes a .zip" "$tmp/zip1/cabra-9.8.7-x86_64-pc-windows-msvc.zip" "$zip1"
touch -d "2027-07-01 12:00" "$tmp/cabra.exe"
zip2="$("$repo/scripts/package.sh" "$tmp/cabra.exe" x86_64-pc-windows-msvc 9.8.7 "$tmp/zip2")"
check "package: packed twice, the .zip has the same checksum" \
    "$(cut -d' ' -f1 "$zip1.sha256")" "$(cut -d' ' -f1 "$zip2.sha256")"
zdocs="$(for f in "$repo"/docs/*.md; do echo "cabra-9.8.7-x86_64-pc-windows-msvc/docs/${f##*/}"; done)"
check "package: the .zip's contents, in name order" \
    "$(printf '%s\n' cabra-9.8.7-x86_64-pc-windows-msvc/ cabra-9.8.7-x86_64-pc-windows-msvc/{CHANGELOG.md,LICENSE,README.md,cabra.exe,docs/} "$zdocs" | LC_ALL=C sort)" \
    "$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip1")"
check "package: the .zip's entries are dated SOURCE_DATE_EPOCH" "(2026, 1, 1, 0, 0, 0)" \
    "$(python3 -c 'import sys, zipfile; print(*sorted({i.date_time for i in zipfile.ZipFile(sys.argv[1]).infolist()}))' "$zip1")"
check "package: sha256sum -c accepts the .zip's .sha256 file" \
    "cabra-9.8.7-x86_64-pc-windows-msvc.zip: OK" \
    "$(cd "$tmp/zip1" && sha256sum -c cabra-9.8.7-x86_64-pc-windows-msvc.zip.sha256)"
mkdir "$tmp/unzipped"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip1" "$tmp/unzipped"
check "package: the .zip's cabra.exe is the binary" "$(cat "$tmp/cabra")" \
    "$(cat "$tmp/unzipped/cabra-9.8.7-x86_64-pc-windows-msvc/cabra.exe")"
if command -v unzip >/dev/null; then
    check "package: unzip -t accepts the .zip" "No errors detected in compressed data of $zip1." \
        "$(unzip -t "$zip1" | tail -n1)"
fi

# --- image-context.sh --------------------------------------------------------
ctx="$repo/scripts/image-context.sh"
"$repo/scripts/package.sh" "$tmp/cabra" x86_64-unknown-linux-gnu 0.3.0-rc.1 "$tmp/rep1" >/dev/null
check "image-context: the archives' version" "0.3.0-rc.1" \
    "$("$ctx" "$tmp/ctx" "$tmp"/rep1/cabra-0.3.0-rc.1-*-linux-gnu.tar.gz)"
check "image-context: the layout, by TARGETARCH" \
    "$(printf '%s\n' amd64 amd64/LICENSE amd64/cabra arm64 arm64/LICENSE arm64/cabra)" \
    "$(cd "$tmp/ctx" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort)"
check "image-context: the binary is the archive's, executable, dated SOURCE_DATE_EPOCH" \
    "stand-in 1767225600" "$("$tmp/ctx/arm64/cabra") $(stat -c %Y "$tmp/ctx/arm64/cabra")"
check "image-context: the LICENSE is the repository's" "" "$(cmp "$repo/LICENSE" "$tmp/ctx/amd64/LICENSE")"
cp -r "$tmp/rep1" "$tmp/bad"
printf 'x' >>"$tmp/bad/cabra-0.3.0-rc.1-x86_64-unknown-linux-gnu.tar.gz"
fails "image-context: an archive that does not match its .sha256 fails" \
    "$ctx" "$tmp/ctx-bad" "$tmp/bad/cabra-0.3.0-rc.1-x86_64-unknown-linux-gnu.tar.gz"
fails "image-context: archives of two versions fail" "$ctx" "$tmp/ctx-mixed" \
    "$tmp/rep1/cabra-0.3.0-rc.1-aarch64-unknown-linux-gnu.tar.gz" "$tmp/dist/cabra-9.8.7-x86_64-unknown-linux-gnu.tar.gz"
fails "image-context: a Windows archive fails" "$ctx" "$tmp/ctx-win" "$zip1"
fails "image-context: a directory that is not empty fails" "$ctx" "$tmp/ctx" \
    "$tmp/rep1/cabra-0.3.0-rc.1-aarch64-unknown-linux-gnu.tar.gz"
unset SOURCE_DATE_EPOCH

# --- release.yml's pinned Rust ------------------------------------------------
wf="$repo/.github/workflows/release.yml"
pinned="$(sed -n 's/^  RUST_TOOLCHAIN: "\([0-9.]*\)"$/\1/p' "$wf")"
msrv="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$repo/Cargo.toml")"
check "release.yml: RUST_TOOLCHAIN is a full version, not below Cargo.toml's rust-version" "yes" \
    "$(python3 -c 'import sys; p, m = (tuple(map(int, v.split("."))) for v in sys.argv[1:]); print("yes" if len(p) == 3 and p >= m else "no")' \
        "${pinned:-0}" "$msrv" 2>/dev/null || echo no)"
check "release.yml: every Rust toolchain step installs RUST_TOOLCHAIN" \
    "$(grep -c 'uses: dtolnay/rust-toolchain@' "$wf")" \
    "$(grep -cF "toolchain: \${{ env.RUST_TOOLCHAIN }}" "$wf")"
check "release.yml: no unpinned toolchain" "" "$(grep -n 'rust-toolchain@stable' "$wf")"
check "Containerfile: compiles nothing (it copies the release's binaries)" "" \
    "$(grep -En '^(RUN|FROM .* AS)' "$repo/Containerfile")"

# --- the crate's package (cargo package --list; the build that verifies it,
# cargo publish --dry-run, is CI's package job: minutes) -------------------
if command -v cargo >/dev/null; then
    list="$(cd "$repo" && cargo package --list --locked --allow-dirty 2>/dev/null)"
    count="$(wc -l <<<"$list")"
    if ((count > 0 && count <= 250)); then
        passed=$((passed + 1)); printf 'ok    crate: %s files in the package (at most 250)\n' "$count"
    else
        failed=$((failed + 1)); printf 'FAIL  crate: %s files in the package, more than 250 (or none)\n' "$count"
    fi
    check "crate: no integration tests, examples, research, CI, packaging or deployment files" "" \
        "$(grep -E '^(tests/|examples/|docs/research/|\.github/|\.ci/|deploy/|scripts/|Containerfile|flake\.)' <<<"$list" \
            | grep -Ev '^tests/data/tactics/[^/]+\.caminos$')"
    check "crate: what the library and program build from" "" \
        "$(for f in Cargo.toml Cargo.lock build.rs src/lib.rs src/main.rs weights/value.bin LICENSE README.md; do
            grep -qx "$f" <<<"$list" || echo "missing $f"; done)"
    check "crate: every file that src/ embeds" "" \
        "$(cd "$repo" && grep -rl 'include_\(str\|bytes\)!("' src | while read -r f; do
                grep -o 'include_\(str\|bytes\)!("[^"]*")' "$f" | sed 's/.*("//; s/")$//' | while read -r rel; do
                    p="$(realpath -m --relative-to=. "$(dirname "$f")/$rel")"
                    grep -qx "$p" <<<"$list" || echo "missing $p (embedded by $f)"
                done
            done)"
else
    printf 'skip  crate: no cargo\n'
fi

echo "$passed passed, $failed failed"
((failed == 0))
