#!/usr/bin/env bash
# The Debian package (README "Installing"): `cpack -G DEB` in the build folder gives
# ictk_<version>_amd64.deb; unpacked into a scratch root with `dpkg -x`, its ictk certifies
# its sample adapter (exec and .so) with the corpus it finds by default, its Python runner
# replays a corpus fixture, and examples/consumer/ builds against its CMake package.
#
#   tests/reports/deb_package_test.sh BUILD_DIR [SOURCE_DIR]
#
# Exit 0 when every check holds, 1 when one fails, 77 (ctest SKIP_RETURN_CODE) without dpkg.
set -uo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
command -v dpkg >/dev/null 2>&1 || { echo "SKIP: dpkg is not installed (not a Debian system)"; exit 77; }
command -v cpack >/dev/null 2>&1 || { echo "SKIP: cpack is not installed"; exit 77; }
source "$(dirname "$0")/../check_lib.sh"

(cd "$build" && cpack -G DEB -B "$tmp/pkg") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; echo "FAIL cpack -G DEB"; exit 1; }
deb=$(ls "$tmp"/pkg/ictk_*_amd64.deb 2>/dev/null | head -n 1)
check "cpack wrote ictk_<version>_amd64.deb" test -n "$deb"
[ -n "$deb" ] || { cat "$tmp/cpack.log"; exit 1; }
echo "package: $(basename "$deb")"
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends Installed-Size
check "the package declares its dependencies" test -n "$(dpkg-deb -f "$deb" Depends)"
size=$(du -k "$deb" | cut -f1)
check "the package is stripped (${size} KB < 30 MB)" test "$size" -lt 30000

root=$tmp/root
dpkg -x "$deb" "$root"
usr=$root/usr
lib=$(find "$usr" -name libictk_sample_adapter.so | head -n 1)
for f in bin/ictk bin/ictk-sample-adapter include/ictk/adapter.h share/ictk/corpus/INDEX.json \
    share/ictk/runner/replay.py share/doc/ictk/README.md share/doc/ictk/certify.md; do
  check "the package holds /usr/$f" test -e "$usr/$f"
done
check "the package holds the sample .so" test -n "$lib"
config=$(find "$usr" -name ictkConfig.cmake | head -n 1)
check "the package holds ictkConfig.cmake" test -n "$config"
check "and its version file" test -e "$(dirname "$config")/ictkConfigVersion.cmake"

# Certify from the scratch root, outside any checkout: the corpus is found by default.
mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere"
env -u ICTK_CORPUS "$usr/bin/ictk" certify --adapter "exec:$usr/bin/ictk-sample-adapter" \
  --histories 10 --jobs 1 --quiet --out "$tmp/run" >"$tmp/certify.log" 2>&1
rc=$?
check "the packaged ictk certifies the packaged sample (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -n 20 "$tmp/certify.log"
python3 - "$tmp/run/report.jsonl" "$usr/share/ictk/corpus" <<'PY' || failed=1
import json, sys
records = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert records[0].get("corpus") == sys.argv[2], (records[0].get("corpus"), sys.argv[2])
assert records[-1].get("fixture-cases", 0) > 0, "the corpus was not replayed"
print("ok   the corpus at /usr/share/ictk/corpus was found and replayed (%d fixtures)"
      % records[-1]["fixture-cases"])
PY
if [ -n "$lib" ]; then
  "$usr/bin/ictk" certify --adapter "lib:$lib" --histories 5 --jobs 1 --no-corpus --quiet \
    --out "$tmp/run-lib" >"$tmp/certify-lib.log" 2>&1
  rc=$?
  check "the packaged .so adapter certifies (exit $rc)" test $rc -eq 0
fi
# The Python runner on one corpus fixture.
fixture=$(find "$usr/share/ictk/corpus" -name '*.json' ! -name INDEX.json | sort | head -n 1)
if command -v python3 >/dev/null 2>&1 && [ -n "$fixture" ]; then
  python3 "$usr/share/ictk/runner/replay.py" --adapter "$usr/bin/ictk-sample-adapter" \
    "$fixture" >"$tmp/replay.log" 2>&1
  rc=$?
  check "the packaged replay.py replays a corpus fixture (exit $rc)" test $rc -eq 0
  [ $rc -eq 0 ] || tail -n 10 "$tmp/replay.log"
fi

# find_package(ictk) against the scratch root: examples/consumer/.
consumer=$tmp/consumer-build
if cmake -S "$source_dir/examples/consumer" -B "$consumer" -DCMAKE_PREFIX_PATH="$usr" \
     >"$tmp/consumer.log" 2>&1 &&
   cmake --build "$consumer" >>"$tmp/consumer.log" 2>&1; then
  out=$("$consumer/ictk_consumer")
  rc=$?
  echo "$out" | sed 's/^/     /'
  check "examples/consumer builds against the package's find_package(ictk) and runs (exit $rc)" \
    test $rc -eq 0
else
  tail -n 20 "$tmp/consumer.log"
  check "examples/consumer builds against the package's find_package(ictk)" false
fi
exit $failed
