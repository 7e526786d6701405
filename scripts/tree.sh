#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prepare the kernel tree every later step works on, and print its version.
#
# usage: tree.sh                 unpack /usr/src/$LSMCONV_DISTRO.tar.xz into
#                                build/$LSMCONV_DISTRO (scripts/lib.sh; once) as a git repo
#                                with a single commit
#        tree.sh DIR             check that DIR (a user's tree) is a kernel tree
#
# The unpack goes to a temporary directory that is renamed into place only
# when complete, so an interrupted run leaves nothing half-written.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in -h | --help) show_help ;; esac
TARBALL=${LSMCONV_TARBALL:-/usr/src/$LSMCONV_DISTRO.tar.xz}
DEST=$LSMCONV_DISTRO_TREE
# lsmconv_git (lib.sh): fixed identity and date, the base commit is the same
# on every machine.

unpack() {
	local tmp
	[ -f "$TARBALL" ] || die_usage "$TARBALL: missing (is $LSMCONV_DISTRO installed? run scripts/deps.sh)"
	mkdir -p "$LSMCONV_ROOT/build"
	tmp=$(mktemp -d "$LSMCONV_ROOT/build/.tree.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	progress 1 3 "unpacking $TARBALL"
	tar -C "$tmp" -xf "$TARBALL"
	local top
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d)
	[ "$(printf '%s\n' "$top" | wc -l)" -eq 1 ] || die "$TARBALL: expected one top directory"
	require_kernel_tree "$top"
	progress 2 3 "recording the pristine tree as one git commit"
	lsmconv_git -C "$top" init -q
	# Debian's top-level .gitignore ignores "/*": add by force, and use
	# `git add -f` for new files in every later step.
	lsmconv_git -C "$top" add -f -A
	lsmconv_git -C "$top" commit -q -m "linux-source-$(kernel_version "$top") (Debian, pristine)"
	progress 3 3 "moving into place: $DEST"
	mv "$top" "$DEST"
	rm -rf "$tmp"
	trap - EXIT
}

if [ $# -gt 1 ]; then
	echo "usage: ${0##*/} [DIR]" >&2
	exit 2
elif [ $# -eq 1 ]; then
	require_kernel_tree "$1"
	echo "tree: $(realpath "$1") ($(kernel_version "$1"))"
	exit 0
fi
if [ ! -d "$DEST/.git" ]; then
	[ ! -e "$DEST" ] || die_usage "$DEST exists but is not a git repo made by tree.sh; remove it"
	unpack
fi
git -C "$DEST" rev-parse -q --verify HEAD >/dev/null || die_usage "$DEST: git repo without a commit; remove it"
echo "tree: $DEST ($(kernel_version "$DEST"))"
