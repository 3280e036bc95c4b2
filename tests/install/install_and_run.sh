#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed application, run as a user would run it (issue 45): `cmake --install` of this build into a
# scratch prefix; every file a desktop and a package expect is there, the desktop entry and the AppStream
# metainfo pass their validators and the man page lists the commands; then, in a private mount namespace that
# binds an empty folder over the source tree (so nothing can be read from it), the installed carbon3d-cli
# simulates the installed sample scenario and the installed studio opens it and saves a screenshot.
# Arguments: BUILD_DIR SOURCE_DIR APP_ID. Needs root for the mount namespace (CI runs as root); it never skips.
set -euo pipefail
build="$1"
source_dir="$(cd "$2" && pwd)"
app_id="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
unset CARBON3D_DATA_DIR

prefix="$work/root/usr"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log" >&2; fail "cmake --install"; }
for file in bin/carbon3d bin/carbon3d-cli \
    share/carbon3d/sample_data/scenarios/default.json share/carbon3d/sample_data/traces/SOURCES.md \
    share/carbon3d/docs/MODEL.md share/doc/carbon3d/LICENSE \
    "share/applications/$app_id.desktop" "share/metainfo/$app_id.metainfo.xml" \
    "share/icons/hicolor/scalable/apps/$app_id.svg" "share/icons/hicolor/16x16/apps/$app_id.png" \
    "share/icons/hicolor/512x512/apps/$app_id.png" \
    share/man/man1/carbon3d.1.gz share/man/man1/carbon3d-cli.1.gz; do
    [ -s "$prefix/$file" ] || fail "the install has no $file"
done
desktop-file-validate "$prefix/share/applications/$app_id.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$prefix/share/metainfo/$app_id.metainfo.xml" >"$work/appstream.log" ||
    { cat "$work/appstream.log" >&2; fail "appstreamcli validate"; }
for command in validate simulate estimate search runs study plot; do
    zcat "$prefix/share/man/man1/carbon3d-cli.1.gz" | grep -qx "$command" ||
        fail "man carbon3d-cli does not list $command"
done
zcat "$prefix/share/man/man1/carbon3d.1.gz" | grep -q "screenshot" || fail "man carbon3d does not list --screenshot"

# Runs a command with the source tree hidden: an empty folder bound over it in a private mount namespace.
empty="$work/empty"
mkdir "$empty"
hidden() {
    unshare --mount --propagation private \
        sh -c 'mount --bind "$1" "$2" && shift 2 && cd / && exec "$@"' hidden "$empty" "$source_dir" "$@"
}
hidden test ! -e "$source_dir/sample_data/scenarios/default.json" || fail "the source tree is still visible"
data="$prefix/share/carbon3d/sample_data"
hidden "$prefix/bin/carbon3d-cli" simulate "$data/scenarios/default.json" --policy static-max \
    --db "$work/runs.sqlite" >"$work/simulate.out" 2>&1 || { cat "$work/simulate.out" >&2; fail "installed simulate"; }
grep -q "static-max" "$work/simulate.out" || { cat "$work/simulate.out" >&2; fail "simulate printed no run"; }
hidden env QT_QPA_PLATFORM=offscreen "$prefix/bin/carbon3d" --db "$work/studio.sqlite" \
    --screenshot "$work/studio.png" >"$work/studio.out" 2>&1 || { cat "$work/studio.out" >&2; fail "installed studio"; }
[ -s "$work/studio.png" ] || fail "the installed studio saved no screenshot"
echo "installed into $prefix: files, validators, man pages, simulate and the studio's screenshot all pass"
