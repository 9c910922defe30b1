#!/usr/bin/env bash
# The version a release tag publishes, for the release workflow:
#
#   scripts/release-version.sh TAG        (e.g. v0.3.0 or v0.3.0-rc.1)
#
# prints, as lines for $GITHUB_OUTPUT,
#   version=0.3.0-rc.1      the tag without its v; it must be Cargo.toml's
#   prerelease=true         whether it has a pre-release part (-rc.1): a
#                           pre-release is a GitHub pre-release and never
#                           the image's :latest
# and fails if the tag is not vX.Y.Z or vX.Y.Z-PRERELEASE (no +BUILD: no
# image tag can hold a +), if its version is not Cargo.toml's, or if
# CHANGELOG.md's [Unreleased] section still has entries: they would ship
# under a version whose notes do not name them (a tag of the last
# release's version on a newer commit), so a release moves them into its
# own `## [VERSION] - DATE` section first.
# CARGO_TOML, CHANGELOG env vars: another Cargo.toml or CHANGELOG.md than
# the repository's.
set -euo pipefail

die() { printf 'release-version: %s\n' "$*" >&2; exit 1; }
[[ $# -eq 1 ]] || die "usage: scripts/release-version.sh TAG"
tag="$1"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
manifest="${CARGO_TOML:-$repo/Cargo.toml}"
[[ $tag =~ ^v([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)$ ]] \
    || die "the tag $tag is not vX.Y.Z or vX.Y.Z-PRERELEASE"
version="${BASH_REMATCH[1]}"
cargo_version="$(sed -n '/^\[package\]/,/^\[/s/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$manifest" | head -n1)"
[[ $version == "$cargo_version" ]] \
    || die "the tag $tag is version $version, but Cargo.toml says ${cargo_version:-nothing}"
changelog="${CHANGELOG:-$repo/CHANGELOG.md}"
[[ -f $changelog ]] || die "no $changelog"
unreleased="$(awk '
    /^## / { if (inside) exit; if ($0 ~ /^## +\[Unreleased\]/) { inside = 1; next } }
    inside && /^\[[^]]+\]: / { exit }
    inside && NF { n++ }
    END { print n + 0 }
' "$changelog")"
[[ $unreleased -eq 0 ]] \
    || die "$changelog has $unreleased lines under [Unreleased]: move them into ## [$version] - DATE before tagging $tag"
if [[ $version == *-* ]]; then prerelease=true; else prerelease=false; fi
echo "version=$version"
echo "prerelease=$prerelease"
