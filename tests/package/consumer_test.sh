#!/usr/bin/env bash
# The CMake package (README "Layout", "Installing"): `cmake --install` of the build folder
# into a scratch prefix installs ictkConfig.cmake with its version file and no internal
# header (*_internal.h); examples/consumer/, a project outside the tree, configures with
# find_package(ictk 0.1) against that prefix, builds and runs; asking for a version the
# package is not compatible with fails at configure time.
#
#   tests/package/consumer_test.sh SOURCE_DIR BUILD_DIR
#
# Exit 0 when every check holds, 1 when one fails.
set -uo pipefail
source_dir=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
source "$(dirname "$0")/../check_lib.sh"

prefix=$tmp/prefix
if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
  tail -n 20 "$tmp/install.log"
  echo "FAIL cmake --install $build --prefix $prefix"
  exit 1
fi
config=$(find "$prefix" -name ictkConfig.cmake | head -n 1)
check "the install holds ictkConfig.cmake" test -n "$config"
check "and ictkConfigVersion.cmake beside it" test -e "$(dirname "${config:-/nonexistent}")/ictkConfigVersion.cmake"
check "and ictkTargets.cmake beside it" test -e "$(dirname "${config:-/nonexistent}")/ictkTargets.cmake"
check "the install holds include/ictk/adapter.h" test -e "$prefix/include/ictk/adapter.h"
check "the install holds the model's headers" test -e "$prefix/include/ictk/model/judge/rule_catalogue.h"
internal=$(find "$prefix/include" -name '*_internal.h' | sed "s|$prefix/||")
check "no internal header is installed${internal:+ (}${internal//$'\n'/, }${internal:+)}" test -z "$internal"

# Every installed header is self-contained with what is installed: one translation unit
# including all of them compiles against the installed include folder alone (a public
# header reaching for an internal one would fail here).
(cd "$prefix/include/ictk" && find model codec -name '*.h' | sort | sed 's/.*/#include "&"/') \
  >"$tmp/all_headers.cc"
c++ -std=c++20 -fsyntax-only -I "$prefix/include/ictk" -I "$prefix/include" \
  "$tmp/all_headers.cc" >"$tmp/headers.log" 2>&1
rc=$?
[ $rc -eq 0 ] || head -n 10 "$tmp/headers.log"
check "all $(wc -l <"$tmp/all_headers.cc") installed model and codec headers compile from the prefix" \
  test $rc -eq 0

# examples/consumer/ against the prefix.
consumer=$tmp/consumer-build
if cmake -S "$source_dir/examples/consumer" -B "$consumer" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_BUILD_TYPE=Release >"$tmp/consumer.log" 2>&1 &&
   cmake --build "$consumer" >>"$tmp/consumer.log" 2>&1; then
  out=$("$consumer/ictk_consumer")
  rc=$?
  echo "$out" | sed 's/^/     /'
  check "examples/consumer builds against the installed package and runs (exit $rc)" \
    test $rc -eq 0
  check "the consumer read the rule catalogue" grep -q '^model: [1-9][0-9]* rules' <<<"$out"
  check "the consumer decoded a schema with the codec" grep -q '^codec: a schema with field id: long' <<<"$out"
else
  tail -n 30 "$tmp/consumer.log"
  check "examples/consumer configures and builds against the installed package" false
fi

# The version file: a version the package does not claim compatibility with is refused.
mkdir -p "$tmp/too-new"
cat >"$tmp/too-new/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(too_new LANGUAGES CXX)
find_package(ictk 99.0 REQUIRED)
CM
if cmake -S "$tmp/too-new" -B "$tmp/too-new/build" -DCMAKE_PREFIX_PATH="$prefix" \
     >"$tmp/too-new.log" 2>&1; then
  check "find_package(ictk 99.0) is refused by the version file" false
else
  check "find_package(ictk 99.0) is refused by the version file" \
    grep -q 'ictkConfigVersion.cmake\|not compatible\|version' "$tmp/too-new.log"
fi
exit $failed
