#!/usr/bin/env bash
# Builds cutover_VERSION_ARCH.deb with debhelper from an already built tree (BUILD_DIR, as
# scripts/test.sh leaves it): the binary is copied, not recompiled. Generates the man pages,
# the bash completion and /etc/cutover/cutover.yaml on the way, then runs lintian.
# Usage: BUILD_DIR=build scripts/package.sh [OUT_DIR]   (OUT_DIR defaults to BUILD_DIR/package)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${BUILD_DIR:-$root/build}" && pwd)"
out="${1:-$build/package}"
bin="$build/src/cmd/cutover"
docgen="$build/packaging/cutover_docgen"
for file in "$bin" "$docgen"; do
  [ -x "$file" ] || { echo "package.sh: $file is missing; build it first (scripts/build.sh cutover cutover_docgen)" >&2; exit 2; }
done
version="$(sed -n 's/^project(cutover VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
src="$work/cutover-$version"
stage="$src/prebuilt"
mkdir -p "$src" "$stage/usr/bin" "$stage/etc/cutover" "$stage/usr/share/man/man1" "$stage/usr/share/man/man5" \
  "$stage/usr/share/bash-completion/completions" "$stage/usr/share/doc/cutover"
cp -a "$root/packaging/debian" "$src/debian"
sed -i "1s/(.*)/($version)/" "$src/debian/changelog"

install -m 0755 "$bin" "$stage/usr/bin/cutover"
strip --strip-debug --strip-unneeded "$stage/usr/bin/cutover"
"$docgen" example > "$stage/etc/cutover/cutover.yaml"
"$docgen" zone > "$stage/etc/cutover/example.test.zone"
chmod 0644 "$stage/etc/cutover/"*
"$docgen" man5 "$version" > "$work/cutover.yaml.5"
"$root/scripts/gen-cli-docs.sh" "$bin" "$work" "$version"
gzip -9n -c "$work/cutover.1" > "$stage/usr/share/man/man1/cutover.1.gz"
gzip -9n -c "$work/cutover.yaml.5" > "$stage/usr/share/man/man5/cutover.yaml.5.gz"
install -m 0644 "$work/cutover.bash-completion" "$stage/usr/share/bash-completion/completions/cutover"
install -m 0644 "$root/LICENSE" "$stage/usr/share/doc/cutover/LICENSE"

(cd "$src" && dpkg-buildpackage -b -us -uc --no-check-builddeps -d >"$work/build.log" 2>&1) || {
  cat "$work/build.log" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/cutover_*.deb
cp "$work"/cutover_*.deb "$out/"
deb="$(ls "$out"/cutover_*.deb)"
echo "package.sh: built $deb"
# Findings are fixed or overridden with a reason (packaging/debian/cutover.lintian-overrides).
lintian --fail-on error,warning --tag-display-limit 0 "$work"/cutover_*.changes
