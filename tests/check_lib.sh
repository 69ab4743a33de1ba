# Sourced by the shell tests (tests/*/*_test.sh): a scratch folder `$tmp` removed on exit,
# `failed` set to 1 by a failing check, and the checks themselves. A test ends with
# `exit $failed`.
#
#   source "$(dirname "$0")/../check_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

check() {  # check DESCRIPTION COMMAND...: prints ok or FAIL, and records a failure
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failed=1; fi
}

expect_exit() {  # expect_exit WANT LOG COMMAND...: the command's exit status is WANT
  local want=$1 log=$2
  shift 2
  "$@" >"$log" 2>&1
  local rc=$?
  check "exit $want (got $rc): ${*:1:4}" test $rc -eq "$want"
  [ $rc -eq "$want" ] || tail -n 15 "$log"
}
