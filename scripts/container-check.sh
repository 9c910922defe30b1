#!/usr/bin/env bash
# Builds the OCI image from the repository's own Containerfile the way the
# release workflow does, from a release archive's binary, on a machine that
# reaches no container registry; then runs `cabra --help`,
# `cabra bench --seconds 1` (if the binary has it) and a short `cabra play`
# on standard input inside the image, and checks its labels and files.
#
#   sudo scripts/container-check.sh        (root: podman's own store, chroot)
#
# The Containerfile compiles nothing: it copies a release archive's static
# binary onto `scratch`, which needs no registry. So this script
#   1. builds the static binary with scripts/static-build.sh --dist (the
#      host's architecture and cargo) into cabra-VERSION-TARGET.tar.gz, or
#      takes the archive named by CABRA_ARCHIVE (a downloaded release's,
#      with its .sha256 beside it);
#   2. lays out the build context from it with scripts/image-context.sh, as
#      the release workflow does;
#   3. builds the image twice, with the labels the release sets (version,
#      revision = HEAD, created = the commit's time, source) and
#      `--timestamp SOURCE_DATE_EPOCH`, and checks that both builds give
#      the same image ID (the image is reproducible);
#   4. checks the labels, that /usr/local/bin/cabra is byte for byte the
#      archive's binary and that /usr/share/doc/cabra/LICENSE is there;
#   5. runs it. `podman run` is tried first; where it fails (here: crun
#      cannot setrlimit) the image is exported to a directory and its
#      ENTRYPOINT is run with chroot, using the image's own PATH, as the
#      container runtime would.
# The image's org.opencontainers.image.version label must equal Cargo.toml's
# version, both in the Containerfile's default and in the built image.
#
# Everything lives in a private podman store (vfs driver) under the cache
# directory, so it touches no other images. The static build takes minutes
# the first time (its target directory is cargo's usual one); the rest
# seconds.
#
# Environment:
#   CABRA_CHECK_CACHE   cache directory (default /var/cache/cabra-container-check);
#                       delete it to start from nothing
#   CABRA_ARCHIVE       a Linux release archive of this machine's architecture
#                       to use instead of building one
#   CABRA_NO_INSTALL=1  do not apt-get install a missing podman
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${CABRA_CHECK_CACHE:-/var/cache/cabra-container-check}"
image=localhost/cabra

say() { printf '\n== %s\n' "$*"; }
die() { printf 'container-check: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root (podman's store and chroot need it)"
[[ -f $repo/Containerfile ]] || die "no Containerfile in $repo"

# --- tools -------------------------------------------------------------------
if ! command -v podman >/dev/null; then
    if [[ ${CABRA_NO_INSTALL:-0} != 1 ]] && command -v apt-get >/dev/null; then
        say "installing podman with apt-get"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman >/dev/null
    else
        die "missing podman (Debian: apt-get install podman)"
    fi
fi

pod=(podman --root "$cache/storage" --runroot "$cache/runroot" --storage-driver vfs)

# --- the Containerfile's version label must follow Cargo.toml ----------------
cargo_version="$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$repo/Cargo.toml" | head -n1)"
label_version="$(sed -n 's/^ARG CABRA_VERSION=\(.*\)$/\1/p' "$repo/Containerfile" | head -n1)"
[[ -n $cargo_version ]] || die "cannot read version from Cargo.toml"
[[ $label_version == "$cargo_version" ]] \
    || die "Containerfile has ARG CABRA_VERSION=$label_version but Cargo.toml says $cargo_version: update the Containerfile"

case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 target=x86_64-unknown-linux-gnu ;;
    aarch64 | arm64) arch=arm64 target=aarch64-unknown-linux-gnu ;;
    *) die "no image architecture known for $(uname -m)" ;;
esac

# The release dates everything by its commit: SOURCE_DATE_EPOCH, and the
# labels revision and created.
revision="$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct)}"
created="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
source_url="https://github.com/OWNER/cabra"

# --- 1. the release archive ----------------------------------------------------
if [[ -n ${CABRA_ARCHIVE:-} ]]; then
    archive="$(cd "$(dirname "$CABRA_ARCHIVE")" && pwd)/${CABRA_ARCHIVE##*/}"
    say "using $archive"
else
    say "scripts/static-build.sh --dist $cache/dist $target"
    rm -rf "$cache/dist"
    mkdir -p "$cache"
    "$repo/scripts/static-build.sh" --dist "$cache/dist" "$target"
    archive="$cache/dist/cabra-$cargo_version-$target.tar.gz"
fi
[[ -f $archive ]] || die "no archive $archive"
[[ ${archive##*/} == *-"$target".tar.gz ]] || die "${archive##*/} is not for this machine's $target"

# --- 2. the build context ------------------------------------------------------
ctx="$cache/context"
rm -rf "$ctx"
say "scripts/image-context.sh $ctx ${archive##*/}"
archive_version="$("$repo/scripts/image-context.sh" "$ctx" "$archive")"
echo "version $archive_version, $(find "$ctx" -type f | sed "s|^$ctx/||" | sort | tr '\n' ' ')"

# --- 3. the image, twice -------------------------------------------------------
build() { # TAG
    "${pod[@]}" build --quiet --pull=never --isolation chroot \
        --timestamp "$SOURCE_DATE_EPOCH" \
        --build-arg TARGETARCH="$arch" \
        --build-arg CABRA_VERSION="$archive_version" \
        --build-arg SOURCE_URL="$source_url" \
        --build-arg REVISION="$revision" \
        --build-arg CREATED="$created" \
        -f "$repo/Containerfile" -t "$1" "$ctx"
}
say "podman build -f $repo/Containerfile -t $image $ctx (twice)"
start=$SECONDS
id1="$(build "$image")"
"${pod[@]}" rmi "$image" >/dev/null
id2="$(build "$image")"
build_seconds=$((SECONDS - start))
echo "image IDs: $id1, $id2"
[[ $id1 == "$id2" ]] || die "two builds from the same archive gave two images: not reproducible"
"${pod[@]}" image prune -f >/dev/null

size="$("${pod[@]}" image inspect --format '{{.Size}}' "$image")"
entrypoint="$("${pod[@]}" image inspect --format '{{json .Config.Entrypoint}}' "$image")"
mapfile -t ep < <("${pod[@]}" image inspect --format '{{range .Config.Entrypoint}}{{println .}}{{end}}' "$image" | sed '/^$/d')
img_path="$("${pod[@]}" image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image" | sed -n 's/^PATH=//p')"
# shellcheck disable=SC2016 # a Go template, not shell
labels="$("${pod[@]}" image inspect --format '{{range $k, $v := .Labels}}{{$k}}={{$v}}{{println}}{{end}}' "$image")"

# --- 4. labels and files -------------------------------------------------------
label() { sed -n "s/^org\.opencontainers\.image\.$1=//p" <<<"$labels"; }
image_version="$(label version)"
[[ $image_version == "$cargo_version" ]] \
    || die "the image's org.opencontainers.image.version is '$image_version', Cargo.toml says $cargo_version"
[[ $(label revision) == "$revision" ]] || die "the image's revision label is '$(label revision)', not $revision"
[[ $(label created) == "$created" ]] || die "the image's created label is '$(label created)', not $created"
[[ $(label source) == "$source_url" ]] || die "the image's source label is '$(label source)', not $source_url"
files="$(mktemp -d)"
ctr="$("${pod[@]}" create "$image")"
"${pod[@]}" export "$ctr" | tar -x -C "$files"
"${pod[@]}" rm "$ctr" >/dev/null
cmp "$ctx/$arch/cabra" "$files/usr/local/bin/cabra" || die "the image's cabra is not the archive's"
cmp "$repo/LICENSE" "$files/usr/share/doc/cabra/LICENSE" || die "the image's /usr/share/doc/cabra/LICENSE is not LICENSE"
image_files="$(cd "$files" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')"
rm -rf "$files"

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
image:        $image (built twice from $repo/Containerfile in ${build_seconds}s, the same ID both times: $id1)
binary:       from ${archive##*/} ($(cut -d' ' -f1 "$archive.sha256")), the same bytes in the image
files:        $image_files
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
