#!/usr/bin/env bash
# Installs the Debian packages quiver builds against; as non-root, prints the command instead.
set -euo pipefail
pkgs=(cmake ninja-build g++ clang-14 libclang-rt-14-dev ccache pkg-config
      libgtest-dev libgmock-dev libbenchmark-dev
      libmimalloc-dev libcli11-dev libfmt-dev
      libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libbrotli-dev libdeflate-dev
      libfast-float-dev libxxhash-dev libsimdjson-dev
      liblzo2-dev libssl-dev tzdata
      libpq-dev postgresql-15 postgresql-client-15
      python3 python3-dev python3-venv python3-pip python3-setuptools python3-wheel
      pybind11-dev python3-pybind11 python3-numpy python3-pandas python3-pytest
      python3-dask python3-distributed python3-matplotlib)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#pkgs[@]} Debian packages present"
  exit 0
fi
cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing packages; run as root:"
  echo "  $cmd"
  exit 1
fi
echo "deps: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
