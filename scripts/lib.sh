# Shared by scripts/demo and scripts/test: install what is missing (Debian packages), then
# configure and build. Sourced, not run. Idempotent and quick when everything is in place.

ICTK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ICTK_BUILD=${ICTK_BUILD:-$ICTK_ROOT/build}
ICTK_PACKAGES=(g++ make cmake git python3 python3-jsonschema
  libgtest-dev libgmock-dev librapidcheck-dev nlohmann-json3-dev libfmt-dev libcli11-dev
  libexpected-dev libbenchmark-dev)

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

ictk_build() {
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  if [ ! -f "$ICTK_BUILD/CMakeCache.txt" ]; then
    local launcher=()
    # A compiler cache, when the machine has one, makes rebuilds of a second tree cheap.
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$ICTK_ROOT" -B "$ICTK_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "$@"
  fi
  cmake --build "$ICTK_BUILD" -j "$jobs"
}
