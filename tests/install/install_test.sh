#!/usr/bin/env bash
# `cmake --install` into an empty prefix, then a program built against it from an empty folder,
# once through find_package(quiver CONFIG) (static library) and once through pkg-config
# (shared library), and run. Usage: install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
"$prefix/bin/quiver" --version

want=$(printf 'id: int64\nname: string\n[1, 2, 3]\n["ada", "grace", null]\nrows 3\n')

# CMake: a fresh project that knows only the prefix.
mkdir "$work/cmake-src" "$work/cmake-build" "$work/cmake-run"
cp "$source/tests/install/consumer/main.cc" "$source/tests/install/consumer/CMakeLists.txt" "$work/cmake-src/"
cmake -S "$work/cmake-src" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER= >"$work/cmake-configure.log"
cmake --build "$work/cmake-build" >"$work/cmake-build.log"
got=$("$work/cmake-build/consumer" "$work/cmake-run")
if [ "$got" != "$want" ]; then
  printf 'find_package program printed:\n%s\nwanted:\n%s\n' "$got" "$want" >&2
  exit 1
fi
echo "find_package(quiver CONFIG): ok"

# pkg-config: the shared library, found at run time through the rpath.
mkdir "$work/pc-run"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
c++ -O1 -o "$work/pc-consumer" "$work/cmake-src/main.cc" $(pkg-config --cflags --libs quiver) \
  -Wl,-rpath,"$prefix/lib"
libs=$(ldd "$work/pc-consumer")  # whole, before grep: grep -q stopping early would fail the pipe
if [[ "$libs" != *"$prefix/lib/libquiver.so"* ]]; then
  printf 'pkg-config program does not use the installed libquiver.so:\n%s\n' "$libs" >&2
  exit 1
fi
got=$("$work/pc-consumer" "$work/pc-run")
if [ "$got" != "$want" ]; then
  printf 'pkg-config program printed:\n%s\nwanted:\n%s\n' "$got" "$want" >&2
  exit 1
fi
echo "pkg-config quiver: ok"
rm -rf "$work"
