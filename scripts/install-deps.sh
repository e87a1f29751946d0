#!/usr/bin/env bash
# Installs the Debian 12 packages cutover needs to build, test and fuzz (compilers, libraries,
# and the real DNS tools the integration tests drive). Installs only what is missing, so it
# is quick and needs no root when everything is already there.
# Usage: scripts/install-deps.sh
set -euo pipefail

packages=(
  build-essential cmake ninja-build g++ clang libclang-rt-14-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libasio-dev libcpp-httplib-dev libcurl4-openssl-dev libcurl4 libssl-dev libsqlite3-dev
  pkgconf libmaxminddb-dev libmaxmind-db-writer-perl
  bind9-dnsutils knot-dnsutils bind9-utils ldnsutils
  python3 dnsperf valgrind
  nsd knot bind9 sqlite3
  openssl iproute2
  unbound bind9 knot-resolver pdns-recursor dnsmasq
  debhelper dpkg-dev lintian systemd man-db passwd util-linux
  openjdk-17-jdk-headless golang-go nodejs curl python3-requests nftables
  lld
  chromium python3-websocket
  etcd-server etcd-client
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
