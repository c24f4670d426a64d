#!/bin/bash
# Every public header (src/quiver/**/*.h but *_internal.h and cli/) compiles alone and includes
# no internal header, directly or through another; api.h names only public headers.
# Usage: public_headers_test.sh CXX SOURCE_DIR
set -euo pipefail
cxx=$1
src=$2/src
cd "$src"
fail=0
for h in $(find quiver -name '*.h' ! -name '*_internal.h' ! -path 'quiver/cli/*' | sort); do
  if ! deps=$("$cxx" -std=c++20 -I. -fsyntax-only -H -x c++ "$h" 2>&1 >/dev/null); then
    echo "FAIL $h does not compile alone:"
    echo "$deps" | grep -v '^\.' | head -5
    fail=1
    continue
  fi
  internal=$(echo "$deps" | grep '^\.' | grep -o 'quiver/[^ ]*_internal\.h' | sort -u | tr '\n' ' ' || true)
  if [ -n "$internal" ]; then
    echo "FAIL $h includes internal headers: $internal"
    fail=1
  fi
done
exit $fail
