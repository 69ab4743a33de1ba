#!/usr/bin/env bash
# report.html in a real browser (docs/certify.md "The picture"): headless Chromium opens the
# report of a failing sample-mutant run, dumps the DOM and takes a screenshot; the failure's
# SVG must be in the DOM (the history, its failing step in red with the rule), the browser
# must log no console error (a script error, a blocked load, a CSP violation), and nothing
# may be loaded from the network: the page declares `default-src 'none'`, has no external
# URL, and Chromium's net log of the visit has no request but the file itself. A negative
# control (the same page with an external image) shows the checks catch a load.
#
#   tests/reports/browser_report_test.sh SOURCE_DIR BIN_DIR [SCREENSHOT.png]
#
# Exit 0 when every check holds, 1 when one fails, 77 (ctest SKIP_RETURN_CODE) when no
# Chromium is installed (scripts/test installs the Debian package `chromium`).
set -uo pipefail
bin=$2
shot_out=${3:-}
ictk=$bin/ictk
browser=""
for b in chromium chromium-browser google-chrome; do
  command -v "$b" >/dev/null 2>&1 && { browser=$(command -v "$b"); break; }
done
[ -n "$browser" ] || {
  echo "SKIP: no headless Chromium (install the Debian package chromium; scripts/test does)"
  exit 77
}
source "$(dirname "$0")/../check_lib.sh"

mutant=${ICTK_BROWSER_MUTANT:-statuses-not-recomputed-on-retry}
"$ictk" certify --adapter "builtin:sample?mutant=$mutant" --histories 40 --no-corpus --quiet \
  --out "$tmp/run" >"$tmp/certify.log" 2>&1
check "the mutant's run fails (exit 1)" test $? -eq 1
page=$tmp/run/report.html
check "report.html written" test -s "$page"

# visit PAGE NAME: DOM in NAME.dom, screenshot NAME.png, browser log NAME.log, net log
# NAME.netlog. A fresh profile each time; no sandbox (CI containers run as root).
visit() {
  local page=$1 name=$2
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check
    --disable-extensions --disable-sync --disable-background-networking
    --disable-component-update --user-data-dir="$tmp/profile-$name"
    --enable-logging=stderr --v=0 --log-net-log="$tmp/$name.netlog"
    --window-size=1280,1600 --virtual-time-budget=3000)
  timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$tmp/$name.dom" \
    2>"$tmp/$name.log"
  timeout 60 "$browser" "${flags[@]}" --screenshot="$tmp/$name.png" "file://$page" \
    >/dev/null 2>>"$tmp/$name.log"
}
# console_errors NAME: the console messages and blocked loads Chromium logged.
console_errors() {
  grep -E "CONSOLE|Refused to|Uncaught|Content Security Policy|ERR_BLOCKED" "$tmp/$1.log"
}
# network_requests NAME: the URLs the page requested, other than file: ones. The net log
# also holds the browser's own background requests (component updates, the clock); those
# have no initiating origin ("not an origin"), a page's requests have the page's.
network_requests() {
  python3 - "$tmp/$1.netlog" <<'PY'
import json, sys
try:
    log = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("unreadable net log: %s" % e)
    sys.exit(0)
names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
for e in log.get("events", []):
    p = e.get("params") or {}
    if names.get(e.get("type")) != "URL_REQUEST_START_JOB" or "url" not in p:
        continue
    if p.get("initiator") == "not an origin":
        continue
    if not p["url"].startswith(("file:", "data:", "about:")):
        print(p["url"])
PY
}
# external_urls PAGE: what the page would load (src, href, CSS url() and @import), other
# than in-page references (#id).
external_urls() {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
pattern = r"""(?:src|href)\s*=\s*["']([^"'#][^"']*)|url\(\s*["']?([^"')#][^"')]*)|@import"""
for m in re.finditer(pattern, text):
    print(m.group(0)[:80])
PY
}

visit "$page" report
check "Chromium dumped the DOM" test -s "$tmp/report.dom"
check "the DOM has the failure's history SVG" grep -q '<svg class="history"' "$tmp/report.dom"
check "the SVG marks the failing step" grep -q 'class="failed-step"' "$tmp/report.dom"
check "the SVG captions the failing step with its rule" \
  grep -q 'class="failure-caption"' "$tmp/report.dom"
check "the DOM has the rule matrix grouped by subsection" grep -q 'class="group"' "$tmp/report.dom"
check "the DOM has coverage bars" grep -q '<svg class="coverage"' "$tmp/report.dom"
check "the page declares default-src 'none'" \
  grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$page"
urls=$(external_urls "$page")
check "the page has no external URL (src, href, url(), @import)" test -z "$urls"
[ -z "$urls" ] || echo "$urls" | head -n 5
check "the screenshot was taken" test -s "$tmp/report.png"
check "it is a PNG" bash -c "head -c 8 '$tmp/report.png' | od -An -c | grep -q 'P   N   G'"
errors=$(console_errors report)
check "no console error" test -z "$errors"
[ -z "$errors" ] || echo "$errors" | head -n 10
requests=$(network_requests report)
check "the net log shows no network request" test -z "$requests"
[ -z "$requests" ] || echo "$requests" | head -n 10

# The negative control: an external image and a script must show up in the checks.
sed 's|</body>|<img src="http://198.51.100.7/x.png"><script>undefinedFunction()</script></body>|' \
  "$page" >"$tmp/bad.html"
visit "$tmp/bad.html" bad
check "control: the blocked load is a console error" test -n "$(console_errors bad)"
check "control: the static check sees the external URL" test -n "$(external_urls "$tmp/bad.html")"
# Without the policy the same image is requested, and the net log check sees it.
sed 's|<meta http-equiv="Content-Security-Policy"[^>]*>||' "$tmp/bad.html" >"$tmp/open.html"
visit "$tmp/open.html" open
check "control: without the policy the net log shows the page's request" \
  test -n "$(network_requests open | grep 198.51.100.7)"

if [ -n "$shot_out" ]; then
  cp "$tmp/report.png" "$shot_out"
  echo "screenshot: $shot_out"
fi
exit $failed
