#!/usr/bin/env bash
# Lays out the build context of the Containerfile from release archives:
#
#   scripts/image-context.sh DIR ARCHIVE...
#
# Each ARCHIVE is a Linux cabra-VERSION-TARGET.tar.gz of scripts/package.sh,
# with its .sha256 file beside it, which must match. Its cabra and LICENSE
# go to DIR/ARCH/, ARCH being the architecture as TARGETARCH names it
# (x86_64-unknown-linux-gnu: amd64, aarch64-unknown-linux-gnu: arm64), with
# the archive's modes and dates. All the archives must be of one version,
# which is printed. DIR must not exist yet, or be empty.
#
# The release workflow makes the image from the archives it publishes this
# way, so the image's binaries are the released ones; so does
# scripts/container-check.sh with one it builds.
set -euo pipefail

die() { printf 'image-context: %s\n' "$*" >&2; exit 1; }
[[ $# -ge 2 ]] || die "usage: scripts/image-context.sh DIR ARCHIVE..."
dir="$1"
shift
if [[ -e $dir ]]; then
    [[ -d $dir && -z "$(ls -A "$dir")" ]] || die "$dir exists and is not an empty directory"
fi
mkdir -p "$dir"

version=""
for archive in "$@"; do
    file="${archive##*/}"
    [[ -f $archive ]] || die "no archive $archive"
    [[ $file =~ ^cabra-([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)-([a-z0-9_]+-unknown-linux-gnu)\.tar\.gz$ ]] \
        || die "$file is not a Linux cabra-VERSION-TARGET.tar.gz"
    v="${BASH_REMATCH[1]}" target="${BASH_REMATCH[3]}"
    case $target in
        x86_64-unknown-linux-gnu) arch=amd64 ;;
        aarch64-unknown-linux-gnu) arch=arm64 ;;
        *) die "no image architecture for $target" ;;
    esac
    [[ -z $version || $v == "$version" ]] || die "$file is version $v, another archive $version"
    version="$v"
    [[ ! -e $dir/$arch ]] || die "two archives for $arch"
    [[ -f $archive.sha256 ]] || die "no $archive.sha256"
    (cd "$(dirname "$archive")" && sha256sum -c --quiet "$file.sha256") >&2 \
        || die "$file does not match its .sha256"
    mkdir "$dir/$arch"
    tar -xzf "$archive" -C "$dir/$arch" --strip-components=1 \
        "cabra-$v-$target/cabra" "cabra-$v-$target/LICENSE"
    [[ -x $dir/$arch/cabra && -f $dir/$arch/LICENSE ]] || die "$file lacks cabra or LICENSE"
done
echo "$version"
