#!/usr/bin/env bash
# Builds cabra as a statically linked Linux binary, the way the release
# workflow (.github/workflows/release.yml) builds the binaries of its Linux
# archives and of its image (the Containerfile copies them), then checks that it is static and runs `cabra --help` and
# `cabra bench --seconds 1` with it.
#
#   scripts/static-build.sh [--dist DIR] [TARGET]
#
# TARGET is a Rust target triple, x86_64-unknown-linux-gnu or
# aarch64-unknown-linux-gnu; by default the host's. The release workflow
# builds each one on a runner of its own architecture, so the binary it
# publishes is one that ran there. A TARGET of another architecture is
# built (with `rustup target add` and a linker of your own, e.g.
# CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER) and checked, but not run.
#
# With --dist DIR it also packs the binary with scripts/package.sh into
# DIR/cabra-VERSION-TARGET.tar.gz and its .sha256 file.
#
# Needs cargo, a C toolchain and glibc's static libraries (Debian:
# libc6-dev), and `file`.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() { printf 'static-build: %s\n' "$*" >&2; exit 1; }
say() { printf '\n== %s\n' "$*"; }

dist=""
while (($#)); do
    case $1 in
        --dist) [[ $# -ge 2 ]] || die "--dist needs a directory"; dist="$2"; shift 2 ;;
        -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        -*) die "unknown option $1" ;;
        *) break ;;
    esac
done
[[ $# -le 1 ]] || die "at most one TARGET"

host_target() {
    case "$(uname -m)" in
        x86_64 | amd64) echo x86_64-unknown-linux-gnu ;;
        aarch64 | arm64) echo aarch64-unknown-linux-gnu ;;
        *) return 1 ;;
    esac
}
[[ $(uname -s) == Linux ]] || die "static builds are for Linux (this is $(uname -s))"
host="$(host_target)" || die "no Rust target known for this machine ($(uname -m))"
target="${1:-$host}"
case $target in
    x86_64-unknown-linux-gnu | aarch64-unknown-linux-gnu) ;;
    *) die "unsupported target $target (x86_64-unknown-linux-gnu or aarch64-unknown-linux-gnu)" ;;
esac
command -v file >/dev/null || die "needs \`file\` (Debian: apt-get install file)"

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$target"; then
    say "rustup target add $target"
    rustup target add "$target"
fi

# The release's settings (it also pins the Rust: RUST_TOOLCHAIN in
# release.yml; here the cargo on PATH builds). --target keeps
# RUSTFLAGS off build scripts and proc-macros, which stay dynamic host
# programs; --locked builds exactly Cargo.lock.
export RUSTFLAGS="-C target-feature=+crt-static"
export CARGO_PROFILE_RELEASE_STRIP=debuginfo
say "RUSTFLAGS=\"$RUSTFLAGS\" CARGO_PROFILE_RELEASE_STRIP=$CARGO_PROFILE_RELEASE_STRIP cargo build --release --locked --target $target --bin cabra"
start=$SECONDS
cargo build --release --locked --target "$target" --bin cabra --manifest-path "$repo/Cargo.toml"
build_seconds=$((SECONDS - start))

{
    read -r target_dir
    read -r version
} < <(cargo metadata --format-version 1 --no-deps --manifest-path "$repo/Cargo.toml" |
    python3 -c 'import json, sys; m = json.load(sys.stdin); print(m["target_directory"]); print(m["packages"][0]["version"])')
bin="$target_dir/$target/release/cabra"
[[ -x $bin ]] || die "no binary at $bin"

say "is it static?"
kind="$(file -b "$bin")"
echo "file: $kind"
[[ $kind == *"statically linked"* || $kind == *"static-pie linked"* ]] \
    || die "$bin is not statically linked"
if [[ $target == "$host" ]]; then
    # ldd says "not a dynamic executable" (static) or "statically linked"
    # (static-pie) and exits 1 for the first; both mean no shared library.
    ldd_out="$(ldd "$bin" 2>&1 || true)"
    echo "ldd: $ldd_out"
    [[ $ldd_out == *"not a dynamic executable"* || $ldd_out == *"statically linked"* ]] \
        || die "ldd lists shared libraries for $bin"
fi

size="$(wc -c <"$bin")"
ran="no (built for $target on a $host machine)"
if [[ $target == "$host" ]]; then
    say "cabra --help"
    "$bin" --help
    say "cabra bench --seconds 1"
    bench_out="$("$bin" bench --seconds 1 2>&1)" || { printf '%s\n' "$bench_out"; die "cabra bench failed"; }
    printf '%s\n' "$bench_out"
    ran="--help, bench --seconds 1"
fi

archive=""
if [[ -n $dist ]]; then
    say "packing into $dist"
    archive="$("$repo/scripts/package.sh" "$bin" "$target" "$version" "$dist")"
fi

say "summary"
cat <<EOF
binary:   $bin
version:  $version
target:   $target, built in ${build_seconds}s
size:     $size bytes ($(numfmt --to=iec "$size"))
linking:  $kind
ran:      $ran
EOF
if [[ -n $archive ]]; then
    echo "archive:  $archive ($(wc -c <"$archive") bytes), $(cat "$archive.sha256")"
fi
