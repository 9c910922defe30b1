#!/usr/bin/env bash
# Packs a built cabra binary as a release archive with its checksum:
#
#   scripts/package.sh BINARY TARGET VERSION DIR
#
# writes DIR/cabra-VERSION-TARGET.tar.gz (DIR/cabra-VERSION-TARGET.zip for a
# Windows TARGET, *-windows-*), holding the directory cabra-VERSION-TARGET/
# with cabra (cabra.exe on Windows), LICENSE, README.md, CHANGELOG.md and the
# user docs, docs/*.md (the README, the help texts and the docs link to them
# by those paths; docs/research/ stays out), and DIR/ARCHIVE.sha256 in the
# format of `sha256sum` (so `sha256sum -c` or `shasum -a 256 -c` checks it),
# then prints the archive's path. The release workflow packs every binary it
# publishes with it, on Linux, macOS and Windows (Git Bash) alike (bash 3.2
# is enough). VERSION may be a pre-release (0.3.0-rc.1).
#
# The archive is reproducible: the same files give the same bytes, whatever
# their times, owners or the order the file system lists them in. Every
# entry is dated SOURCE_DATE_EPOCH (by default the time of the checkout's
# last commit), owned by 0:0 with no names, in name order, with fixed modes
# (755 for the binary and the directories, 644 for the rest), and gzip
# stores no name or time (-n). A .tar.gz needs GNU tar (`gtar` on macOS:
# brew install gnu-tar); a .zip is written by Python's zipfile (python3, or
# python on Windows), since neither zip nor a reproducible zipper comes with
# Git Bash.
set -euo pipefail

die() { printf 'package: %s\n' "$*" >&2; exit 1; }
[[ $# -eq 4 ]] || die "usage: scripts/package.sh BINARY TARGET VERSION DIR"
bin="$1" target="$2" version="$3" dist="$4"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ -f $bin && -x $bin ]] || die "$bin is not an executable file"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] \
    || die "'$version' is not a version (X.Y.Z or X.Y.Z-PRERELEASE)"
[[ -n $target && $target != */* && $target != *" "* ]] || die "'$target' is not a target triple"

epoch="${SOURCE_DATE_EPOCH:-}"
if [[ -z $epoch ]]; then
    epoch="$(git -C "$repo" log -1 --format=%ct 2>/dev/null)" \
        || die "set SOURCE_DATE_EPOCH (no git commit to date the archive by)"
fi
[[ $epoch =~ ^[0-9]+$ ]] || die "SOURCE_DATE_EPOCH '$epoch' is not a number of seconds"

case $target in
    *-windows-*) format=zip exe=cabra.exe ;;
    *) format=tar.gz exe=cabra ;;
esac

name="cabra-$version-$target"
archive="$name.$format"
mkdir -p "$dist"
dist="$(cd "$dist" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/docs"
cp "$bin" "$stage/$name/$exe"
cp "$repo/LICENSE" "$repo/README.md" "$repo/CHANGELOG.md" "$stage/$name/"
cp "$repo"/docs/*.md "$stage/$name/docs/"
chmod 755 "$stage/$name" "$stage/$name/$exe" "$stage/$name/docs"
chmod 644 "$stage/$name/LICENSE" "$stage/$name/README.md" "$stage/$name/CHANGELOG.md" \
    "$stage/$name"/docs/*.md

if [[ $format == tar.gz ]]; then
    tar=""
    for t in tar gtar; do
        # Not `| grep -q`: under pipefail, grep leaving early could fail it.
        case "$("$t" --version 2>/dev/null || true)" in *"GNU tar"*) tar="$t"; break ;; esac
    done
    [[ -n $tar ]] || die "needs GNU tar for a reproducible archive (macOS: brew install gnu-tar)"
    (cd "$stage" && "$tar" --create --format=gnu --sort=name --mtime="@$epoch" \
        --owner=0 --group=0 --numeric-owner --file=- "$name" | gzip -9 -n >"$archive")
else
    python=""
    for p in python3 python; do
        if "$p" -c 'import sys; sys.exit(sys.version_info < (3, 8))' >/dev/null 2>&1; then python="$p"; break; fi
    done
    [[ -n $python ]] || die "needs Python 3.8 or newer (python3 or python) to write a .zip"
    # Relative paths only: on Windows the names are handed to a native
    # program. Zip has no dates before 1980.
    (cd "$stage" && "$python" - "$name" "$exe" "$epoch" "$archive" <<'PY'
import os, sys, time, zipfile
top, exe, epoch, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
date = time.gmtime(max(epoch, 315532800))[:6]
entries = []
for d, dirs, files in os.walk(top):
    d = d.replace(os.sep, "/")
    entries.append(d + "/")
    entries += [d + "/" + f for f in files]
with zipfile.ZipFile(out, "w") as z:
    for e in sorted(entries):
        info = zipfile.ZipInfo(e, date_time=date)
        info.create_system = 3  # Unix, so that the modes below are read
        if e.endswith("/"):
            info.external_attr = (0o40755 << 16) | 0x10
            z.writestr(info, b"")
        else:
            mode = 0o755 if e == top + "/" + exe else 0o644
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(e, "rb") as f:
                z.writestr(info, f.read(), compresslevel=9)
PY
    )
fi
mv "$stage/$archive" "$dist/$archive"

# Written by hand, so that it reads `HASH  NAME` everywhere (a sha256sum on
# Windows may mark the name with `*`).
if command -v sha256sum >/dev/null; then
    hash="$(sha256sum "$dist/$archive")"
else
    hash="$(shasum -a 256 "$dist/$archive")"
fi
printf '%s  %s\n' "${hash%% *}" "$archive" >"$dist/$archive.sha256"
echo "$dist/$archive"
