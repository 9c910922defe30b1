#!/usr/bin/env bash
# Builds the OCI image from the repository's own Containerfile on a machine
# that reaches no container registry, then runs `cabra --help`,
# `cabra bench --seconds 1` (if the binary has it) and a short `cabra play`
# on standard input inside the image, and checks the image's version label.
#
#   sudo scripts/container-check.sh        (root: debootstrap, chroot)
#
# No registry means the Containerfile's build-stage image (ARG RUST_IMAGE)
# cannot be pulled, so this script makes a local stand-in,
# localhost/cabra-rust-builder, laid out like the official rust images:
#   - a minimal Debian rootfs of the host's release (debootstrap, from the
#     host's own apt mirror) with gcc and libc6-dev (static glibc);
#   - the Rust toolchain the Containerfile declares (the version in its
#     default RUST_IMAGE tag, e.g. rust:1.85-slim-bookworm: Rust 1.85.0,
#     installed with rustup if missing; its `rustc --print sysroot`: bin +
#     lib) in /usr/local/rust, on PATH, CARGO_HOME=/usr/local/cargo, so that
#     the check builds with the Rust the image promises, not the host's;
#   - the crates of Cargo.lock, vendored (outside the repository) into
#     /opt/cabra-vendor, with /usr/local/cargo/config.toml pointing cargo at
#     them, offline.
# Then it runs, from the repository root:
#   podman build --isolation chroot --build-arg RUST_IMAGE=localhost/cabra-rust-builder \
#       -f Containerfile -t localhost/cabra .
# `podman run` is tried first; where it fails (here: crun cannot setrlimit)
# the image is exported to a directory and its ENTRYPOINT is run with chroot,
# using the image's own PATH, as the container runtime would.
# The image's org.opencontainers.image.version label must equal Cargo.toml's
# version, both in the Containerfile's default and in the built image.
#
# Everything lives in a private podman store (vfs driver) under the cache
# directory, so it touches no other images. Reruns reuse the rootfs, the
# builder image and the cargo cache mounts, and take a minute or two.
#
# Environment:
#   CABRA_CHECK_CACHE   cache directory (default /var/cache/cabra-container-check);
#                       delete it to start from nothing
#   CABRA_DEBIAN_MIRROR Debian mirror for debootstrap (default: the host's apt source)
#   CABRA_NO_INSTALL=1  do not apt-get install missing podman/debootstrap
#   CABRA_REBUILD_BUILDER=1  remake the builder base image even if present
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${CABRA_CHECK_CACHE:-/var/cache/cabra-container-check}"
image=localhost/cabra
builder=localhost/cabra-rust-builder

say() { printf '\n== %s\n' "$*"; }
die() { printf 'container-check: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root (debootstrap and chroot need it)"
[[ -f $repo/Containerfile ]] || die "no Containerfile in $repo"

# --- tools -------------------------------------------------------------------
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if ((${#missing[@]})); then
    if [[ ${CABRA_NO_INSTALL:-0} != 1 ]] && command -v apt-get >/dev/null; then
        say "installing ${missing[*]} with apt-get"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        die "missing ${missing[*]} (Debian: apt-get install ${missing[*]})"
    fi
fi
if ! command -v cargo >/dev/null || ! command -v rustc >/dev/null; then
    die "cargo and rustc must be on PATH"
fi

pod=(podman --root "$cache/storage" --runroot "$cache/runroot" --storage-driver vfs)

# --- the Containerfile's version label must follow Cargo.toml ----------------
cargo_version="$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$repo/Cargo.toml" | head -n1)"
label_version="$(sed -n 's/^ARG CABRA_VERSION=\(.*\)$/\1/p' "$repo/Containerfile" | head -n1)"
[[ -n $cargo_version ]] || die "cannot read version from Cargo.toml"
[[ $label_version == "$cargo_version" ]] \
    || die "Containerfile has ARG CABRA_VERSION=$label_version but Cargo.toml says $cargo_version: update the Containerfile"

# --- 1. Debian rootfs with gcc and libc6-dev ---------------------------------
# shellcheck disable=SC1091
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[[ -n $codename ]] || die "cannot tell the host's Debian release from /etc/os-release"

debian_mirror() {
    if [[ -n ${CABRA_DEBIAN_MIRROR:-} ]]; then echo "$CABRA_DEBIAN_MIRROR"; return; fi
    local f m
    # deb822 sources: the URIs of the stanza whose Suites has the release.
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        m="$(awk -v rel="$codename" '
            /^[[:space:]]*$/ { if (uri != "" && ok) { print uri; exit } uri = ""; ok = 0; next }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == rel) ok = 1 }
            END { if (uri != "" && ok) print uri }' "$f" | head -n1)"
        [[ -n $m ]] && { echo "$m"; return; }
    done
    # one-line sources.list
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -f $f ]] || continue
        m="$(awk -v rel="$codename" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($(i+1) == rel) { print $i; exit } } }' "$f")"
        [[ -n $m ]] && { echo "$m"; return; }
    done
    return 1
}

rootfs="$cache/rootfs"
if [[ ! -f $rootfs/.cabra-complete ]]; then
    mirror="$(debian_mirror)" || die "no Debian mirror found in the host's apt sources; set CABRA_DEBIAN_MIRROR"
    say "debootstrap $codename (minbase + gcc, libc6-dev) into $rootfs"
    rm -rf "$rootfs.tmp" "$rootfs"
    mkdir -p "$cache"
    debootstrap --variant=minbase --include=gcc,libc6-dev "$codename" "$rootfs.tmp" "$mirror" \
        >"$cache/debootstrap.log" 2>&1 || die "debootstrap failed, see $cache/debootstrap.log"
    rm -rf "$rootfs.tmp"/var/cache/apt/archives/*.deb "$rootfs.tmp"/var/lib/apt/lists/* \
        "$rootfs.tmp"/usr/share/doc "$rootfs.tmp"/usr/share/man "$rootfs.tmp"/usr/share/locale
    touch "$rootfs.tmp/.cabra-complete"
    mv "$rootfs.tmp" "$rootfs"
fi

# --- 2. builder base image: rootfs + the Containerfile's Rust toolchain -------
declared="$(sed -n 's/^ARG RUST_IMAGE=.*rust:\([0-9][0-9.]*\).*/\1/p' "$repo/Containerfile" | head -n 1)"
[[ -n $declared ]] || die "no Rust version in the Containerfile's ARG RUST_IMAGE"
# rust:1.85 means the newest 1.85.x; rustup's 1.85.0 is the oldest such,
# the strictest test of the promise.
[[ $declared == *.*.* ]] || declared="$declared.0"
if ! rustup run "$declared" rustc --version >/dev/null 2>&1; then
    say "installing Rust $declared (the Containerfile's) with rustup"
    rustup toolchain install "$declared" --profile minimal >/dev/null
fi
rust_version="$(rustup run "$declared" rustc --version | awk '{print $2}')"
sysroot="$(rustup run "$declared" rustc --print sysroot)"
base="localhost/cabra-rust-builder-base:$rust_version"
if [[ ${CABRA_REBUILD_BUILDER:-0} == 1 ]] || ! "${pod[@]}" image exists "$base"; then
    say "making $base from $rootfs and $sysroot"
    stage="$cache/builder-root"
    rm -rf "$stage"
    cp -a "$rootfs" "$stage"
    mkdir -p "$stage/usr/local/rust/bin" "$stage/usr/local/cargo/bin"
    cp -aL "$sysroot/bin/cargo" "$sysroot/bin/rustc" "$sysroot/bin/rustdoc" "$stage/usr/local/rust/bin/"
    cp -a "$sysroot/lib" "$stage/usr/local/rust/"
    tar -C "$stage" -c . | "${pod[@]}" import \
        --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV CARGO_HOME=/usr/local/cargo' \
        - "$base" >/dev/null
    rm -rf "$stage"
fi

# --- 3. builder image: + Cargo.lock's crates, offline --------------------------
say "vendoring Cargo.lock's crates (outside the repository) into $cache/builder-ctx/vendor"
ctx="$cache/builder-ctx"
mkdir -p "$ctx"
cargo vendor --quiet --locked --versioned-dirs --manifest-path "$repo/Cargo.toml" "$ctx/vendor" >/dev/null
cat >"$ctx/config.toml" <<'EOF'
[source.crates-io]
replace-with = "cabra-vendored"

[source.cabra-vendored]
directory = "/opt/cabra-vendor"

[net]
offline = true
EOF
cat >"$ctx/Containerfile" <<EOF
FROM $base
COPY vendor /opt/cabra-vendor
COPY config.toml /usr/local/cargo/config.toml
EOF
"${pod[@]}" build --quiet --pull=never --isolation chroot -f "$ctx/Containerfile" -t "$builder" "$ctx" >/dev/null

# --- 4. the image, from the repository's Containerfile -------------------------
say "podman build -f $repo/Containerfile -t $image $repo"
start=$SECONDS
"${pod[@]}" build --pull=never --isolation chroot \
    --build-arg RUST_IMAGE="$builder" \
    --build-arg CABRA_VERSION="$cargo_version" \
    -f "$repo/Containerfile" -t "$image" "$repo"
build_seconds=$((SECONDS - start))
# Drop the previous runs' build stages (about 1 GB each with vfs).
"${pod[@]}" image prune -f >/dev/null

size="$("${pod[@]}" image inspect --format '{{.Size}}' "$image")"
entrypoint="$("${pod[@]}" image inspect --format '{{json .Config.Entrypoint}}' "$image")"
mapfile -t ep < <("${pod[@]}" image inspect --format '{{range .Config.Entrypoint}}{{println .}}{{end}}' "$image" | sed '/^$/d')
img_path="$("${pod[@]}" image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image" | sed -n 's/^PATH=//p')"
# shellcheck disable=SC2016 # a Go template, not shell
labels="$("${pod[@]}" image inspect --format '{{range $k, $v := .Labels}}{{$k}}={{$v}}{{println}}{{end}}' "$image")"
image_version="$(sed -n 's/^org\.opencontainers\.image\.version=//p' <<<"$labels")"
[[ $image_version == "$cargo_version" ]] \
    || die "the image's org.opencontainers.image.version is '$image_version', Cargo.toml says $cargo_version"

# --- 5. run it ---------------------------------------------------------------
# Runs `cabra ARGS` in the image: with `podman run` if it works here, else by
# chroot into the exported image with the image's ENTRYPOINT and PATH, so
# ENTRYPOINT ["cabra"] resolves as the container runtime would resolve it.
unpacked=""
chroot_bin="$(command -v chroot)"
cleanup() { [[ -n $unpacked ]] && rm -rf "$unpacked"; return 0; }
trap cleanup EXIT
if err="$("${pod[@]}" run --rm "$image" --help 2>&1 >/dev/null)"; then
    how="podman run"
else
    how="chroot into the exported image (podman export), ENTRYPOINT and PATH from the image config"
    echo "podman run does not work here: $(tail -n1 <<<"$err")"
    echo "running the exported image with chroot instead"
    unpacked="$(mktemp -d)"
    ctr="$("${pod[@]}" create "$image")"
    "${pod[@]}" export "$ctr" | tar -x -C "$unpacked"
    "${pod[@]}" rm "$ctr" >/dev/null
fi
run_timeout=()
run_in_image() {
    if [[ -z $unpacked ]]; then
        "${run_timeout[@]}" "${pod[@]}" run --rm -i "$image" "$@"
    else
        "${run_timeout[@]}" env -i PATH="$img_path" "$chroot_bin" "$unpacked" "${ep[@]}" "$@"
    fi
}

say "cabra --help (in the image)"
help_out="$(run_in_image --help 2>&1)" || { printf '%s\n' "$help_out"; die "cabra --help failed in the image"; }
printf '%s\n' "$help_out"

bench_out=""
if grep -Eq '^[[:space:]]+bench([[:space:]]|$)' <<<"$help_out"; then
    say "cabra bench --seconds 1 (in the image)"
    run_timeout=(timeout 300)
    bench_out="$(run_in_image bench --seconds 1 2>&1)" \
        || { printf '%s\n' "$bench_out"; die "cabra bench --seconds 1 failed in the image"; }
    printf '%s\n' "$bench_out"
else
    bench_out="(skipped: this cabra has no bench subcommand yet)"
fi

# A game on standard input (not a terminal): one move of ours, the engine's
# answer, then `quit`, which leaves at once when stdin is not a terminal.
say "cabra play, a move and quit on standard input (in the image)"
run_timeout=(timeout 120)
play_args=(play --iterations 100 --threads 1 --seed 1)
play_out="$(printf 'L E180 110\nquit\n' | run_in_image "${play_args[@]}" 2>&1)" \
    || { printf '%s\n' "$play_out"; die "cabra ${play_args[*]} failed in the image"; }
printf '%s\n' "$play_out"
grep -q '^1\. player 1 plays L E180 110' <<<"$play_out" \
    || die "cabra play in the image did not play the move L E180 110"
grep -q '^2\. player 2 plays ' <<<"$play_out" \
    || die "the engine did not answer in cabra play in the image"

# --- summary -----------------------------------------------------------------
say "summary"
cat <<EOF
image:        $image (built from $repo/Containerfile in ${build_seconds}s)
builder:      $builder (Debian $codename rootfs + rustc $rust_version, the Containerfile's; stands in for RUST_IMAGE)
size:         $size bytes ($(numfmt --to=iec "$size"))
entrypoint:   $entrypoint, PATH=$img_path
labels:
$(sed -e '/^$/d' -e 's/^/  /' <<<"$labels")
ran with:     $how
--help:       ok ($(wc -l <<<"$help_out") lines)
store:        $(du -sh "$cache" | cut -f1) in $cache (podman --root $cache/storage --storage-driver vfs)
bench:        $(if [[ $bench_out == "(skipped"* ]]; then echo "$bench_out"; else echo "ok"; fi)
play:         ok (printf 'L E180 110\nquit\n' | cabra ${play_args[*]}: the move and the engine's answer)
version:      $image_version (label org.opencontainers.image.version = Cargo.toml's version)
EOF
