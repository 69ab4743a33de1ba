# Shared by scripts/demo and scripts/test: install what is missing (Debian packages), then
# configure and build. Sourced, not run. Idempotent and quick when everything is in place.

ICTK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ICTK_BUILD=${ICTK_BUILD:-$ICTK_ROOT/build}
ICTK_PACKAGES=(g++ make cmake git python3 python3-jsonschema
  libgtest-dev libgmock-dev librapidcheck-dev nlohmann-json3-dev libfmt-dev libcli11-dev
  libexpected-dev libbenchmark-dev lld)

# Only scripts/fuzz installs these (clang with libFuzzer is several hundred MB, and the
# default build and tests use g++); scripts/test runs its fuzz smoke when clang is there.
ICTK_FUZZ_PACKAGES=(clang)

ictk_install_fuzz_tools() {
  ictk_install_missing "${ICTK_FUZZ_PACKAGES[@]}"
}

# Only scripts/test installs these: headless Chromium for the browser test of report.html
# (tests/reports/browser_report_test.sh, ctest label "browser"; it skips without them).
ICTK_BROWSER_PACKAGES=(chromium)

ictk_install_browser() {
  ictk_install_missing "${ICTK_BROWSER_PACKAGES[@]}"
}

# ictk_install_missing [PACKAGE...]: the given packages, or ICTK_PACKAGES.
ictk_install_missing() {
  local missing=()
  local wanted=("$@")
  [ ${#wanted[@]} -eq 0 ] && wanted=("${ICTK_PACKAGES[@]}")
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "ictk: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# ictk_launcher: sets ICTK_LAUNCHER to the CMake option of a compiler cache, when the machine
# has one (it makes rebuilds of a second tree cheap), or to nothing. ccache caches the files
# compiled with a precompiled header only with this sloppiness (its manual, "Precompiled
# headers"); CCACHE_DISABLE=1 still turns it off.
ictk_launcher() {
  ICTK_LAUNCHER=()
  command -v ccache >/dev/null 2>&1 &&
    ICTK_LAUNCHER=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache")
  return 0
}

# ictk_linker: sets ICTK_LINKER to the CMake options that link with LLVM's lld when the
# machine has it (ICTK_PACKAGES installs it): the test executables carry a few hundred MB of
# objects, which lld links several times faster than the default linker. Nothing otherwise.
ictk_linker() {
  ICTK_LINKER=()
  command -v ld.lld >/dev/null 2>&1 &&
    ICTK_LINKER=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld
      -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld)
  return 0
}

# The main build (scripts/demo, scripts/test): -O2 with line tables only (-g1) instead of
# RelWithDebInfo's -g: about a third less compile time and objects a quarter the size,
# while a crash's backtrace and a sanitizer report still name file:line. Configure with
# -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG" for a build to step through in gdb.
ICTK_BUILD_FLAGS=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
  -DICTK_UNITY_BUILD=ON)

# The sanitizer and fuzz builds (scripts/test, scripts/fuzz) compile with -O1 and line tables
# only (-g1) instead of RelWithDebInfo's -O2 -g: about half the compile time, still the
# optimisation level the sanitizers' documentation recommends, and file:line in every report.
ICTK_SMOKE_FLAGS=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  -DICTK_UNITY_BUILD=ON)

ictk_build() {
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  if [ ! -f "$ICTK_BUILD/CMakeCache.txt" ]; then
    ictk_launcher
    ictk_linker
    cmake -S "$ICTK_ROOT" -B "$ICTK_BUILD" "${ICTK_BUILD_FLAGS[@]}" "${ICTK_LAUNCHER[@]}" \
      "${ICTK_LINKER[@]}" "$@"
  fi
  cmake --build "$ICTK_BUILD" -j "$jobs"
}
