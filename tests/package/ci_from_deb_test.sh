#!/usr/bin/env bash
# The implementation workflow's steps (examples/ci/implementation-repo.yml) from the Debian
# package alone, as its shard and merge jobs run them: `cpack -G DEB` from the build, the
# package unpacked into a scratch root (`dpkg-deb -x`), its bin/ on PATH, then the packaged
# /usr/share/ictk/ci/implementation-repo run from a folder outside any checkout, with no
# ICTK_BIN and no build: two shards and their merge on the packaged sample adapter, then a
# run of the Python example adapter, a mutant, the expectation file `ictk expectations update` proposes for it, and the mutant's
# run again with that file.
#
#   tests/package/ci_from_deb_test.sh BUILD_DIR
#
# Exit 0 when every check holds, 1 when one fails, 77 (ctest SKIP_RETURN_CODE) without
# dpkg-deb or cpack.
set -uo pipefail
build=$(cd "$1" && pwd)
command -v dpkg-deb >/dev/null 2>&1 || { echo "SKIP: dpkg-deb is not installed"; exit 77; }
command -v cpack >/dev/null 2>&1 || { echo "SKIP: cpack is not installed"; exit 77; }
source "$(dirname "$0")/../check_lib.sh"

(cd "$build" && cpack -G DEB -B "$tmp/pkg") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; echo "FAIL cpack -G DEB"; exit 1; }
deb=$(ls "$tmp"/pkg/ictk_*_amd64.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "FAIL cpack wrote no ictk_<version>_amd64.deb"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
for dev in libfmt-dev nlohmann-json3-dev libexpected-dev; do
  check "the package depends on $dev (find_package(ictk) needs it)" \
    grep -q "$dev" <<<"$depends"
done
root=$tmp/root
dpkg-deb -x "$deb" "$root"
usr=$root/usr
ci=$usr/share/ictk/ci/implementation-repo
for f in share/ictk/ci/implementation-repo share/ictk/ci/spec-repo \
    share/ictk/examples/ci/implementation-repo.yml share/ictk/examples/ci/README.md \
    share/ictk/examples/reader-adapter; do
  check "the package holds /usr/$f" test -e "$usr/$f"
done

# Outside any checkout, the packaged ictk on PATH, nothing built.
mkdir -p "$tmp/impl"
cd "$tmp/impl"
export PATH="$usr/bin:$PATH"
unset ICTK_BIN ICTK_BUILD ICTK_CORPUS GITHUB_STEP_SUMMARY
sample="exec:$usr/bin/ictk-sample-adapter"
run() {  # run NAME EXPECTED_STATUS ARGS...: the packaged script, output in $tmp/NAME.log
  local name=$1 want=$2
  shift 2
  ICTK_SUMMARY=$tmp/$name.md "$ci" "$@" >"$tmp/$name.log" 2>&1
  local rc=$?
  check "$name: exit $want (got $rc)" test "$rc" -eq "$want"
  [ "$rc" -eq "$want" ] || tail -n 20 "$tmp/$name.log"
}
for i in 0 1; do
  run "shard-$i" 0 --adapter "$sample" --histories 20 --shard "$i/2" --out "shard-$i"
done
run merge 0 --merge shard-0 shard-1 --out report
for f in summary.md badge.json junit.xml report.html report.jsonl; do
  check "the merged run folder has $f" test -s "report/$f"
done
nothing_built() { ! grep -qi "cmake\|lib.sh" "$tmp/shard-0.log" && test ! -e "$tmp/impl/build"; }
check "the run used the packaged ictk: nothing was configured or built" nothing_built
check "the packaged corpus was replayed" grep -q "$usr/share/ictk/corpus" report/report.jsonl
# The packaged ictk finds what the package ships beside it (`ictk paths`).
ictk paths >"$tmp/paths.txt" 2>&1
check "ictk paths finds everything the package ships (exit $?)" test $? -eq 0
for where in "corpus    $usr/share/ictk/corpus" "examples  $usr/share/ictk/examples" \
             "ci        $usr/share/ictk/ci" "runner    $usr/share/ictk/runner" \
             "docs      $usr/share/doc/ictk"; do
  check "ictk paths: $where" grep -qxF "$where" "$tmp/paths.txt"
done
check "the step summary has certify's summary" grep -q "CONFORMANT" "$tmp/merge.md"
# The workflow's Python variant (examples/ci/implementation-repo-python.yml): the packaged
# Python example adapter, check + unique with narrowed declarations, certified by the same
# packaged steps, its scope named in the step summary.
py=$usr/share/ictk/examples/python-adapter/adapter.py
check "the package holds the Python example adapter" test -e "$py"
run python 0 --adapter "exec:python3 $py" --histories 30 --out python
check "the Python example's summary names its scope" \
  grep -q "check + unique (add-constraint only" "$tmp/python.md"

mutant="$sample --mutant keys-only-among-added"
run mutant 1 --adapter "$mutant" --histories 30 --out mutant
check "a failing run's junit.xml names the failing rule as classname" \
  grep -q 'classname="ictk\.[a-z]*\.[a-z-]*"' mutant/junit.xml
ictk expectations update --report mutant --out expect.txt >"$tmp/update.log" 2>&1
check "expectations update wrote entries" grep -q " xfail" expect.txt
check "no skip lines and no seed-bound random IDs in the proposal" \
  test -z "$(grep -v '^#' expect.txt | grep -E ' skip|^random/')"
run expected 0 --adapter "$mutant" --histories 30 --expect expect.txt --out expected
exit $failed
