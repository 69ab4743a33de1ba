#!/usr/bin/env bash
# report.html in a real browser (docs/certify.md "The picture"): headless Chromium opens the
# report of a failing sample-mutant run, dumps the DOM and takes a screenshot; the failure's
# SVG must be in the DOM (the history, its failing step in red with the rule), the browser
# must log no console error (a script error, a blocked load, a CSP violation), and nothing
# may be loaded from the network: the page declares `default-src 'none'`, has no external
# URL, and Chromium's net log of the visit has no request but the file itself. A negative
# control (the same page with an external image) shows the checks catch a load.
#
# The failure picture (docs/certify.md "The picture") cuts no label: its SVG has no ellipsis,
# and a measuring script (added with its own hash in the policy) finds every text inside the
# picture, overlapping no other (a control with a caption wider than the picture is measured
# as cut). The filter's script runs under the page's own policy (no refusal logged; a control
# with a wrong hash is refused and leaves the form hidden), counts every rule and failure,
# and with a URL fragment (#rule=R&verdict=fail, #verdict=pass) hides what does not match;
# without script only the form is hidden.
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

# visit PAGE NAME [FRAGMENT]: DOM in NAME.dom, screenshot NAME.png, browser log NAME.log,
# net log NAME.netlog; FRAGMENT (e.g. "#verdict=fail") is appended to the page's URL. A
# fresh profile each time; no sandbox (CI containers run as root).
visit() {
  local page=$1 name=$2 fragment=${3:-}
  local flags=(--headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check
    --disable-extensions --disable-sync --disable-background-networking
    --disable-component-update --user-data-dir="$tmp/profile-$name"
    --enable-logging=stderr --v=0 --log-net-log="$tmp/$name.netlog"
    --window-size=1280,1600 --virtual-time-budget=3000)
  timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$page$fragment" >"$tmp/$name.dom" \
    2>"$tmp/$name.log"
  timeout 60 "$browser" "${flags[@]}" --screenshot="$tmp/$name.png" "file://$page$fragment" \
    >/dev/null 2>>"$tmp/$name.log"
}
# console_errors NAME: the console messages and blocked loads Chromium logged.
console_errors() {
  grep -E "CONSOLE|Refused to|Uncaught|Content Security Policy|ERR_BLOCKED" "$tmp/$1.log"
}
# refusals NAME: what the page's policy blocked, as Chromium logs it ("Refused to ..." or,
# for an inline script, "... violates the following Content Security Policy directive").
refusals() {
  grep -E "Refused to|Content Security Policy" "$tmp/$1.log"
}
# no_refusal NAME: the visit dumped a DOM, and the policy blocked nothing.
no_refusal() {
  test -s "$tmp/$1.dom" && test -z "$(refusals "$1")"
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

# The failure picture: no label cut. The SVG has no ellipsis, and in the browser every text
# of it lies inside the picture and overlaps no other text: a measuring script (allowed by
# its own hash, added to the page's policy) writes what getBBox() finds into the DOM.
svg_text=$(python3 - "$page" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
print("".join(re.findall(r'<svg class="history".*?</svg>', page, re.S)))
PY
)
check "the page has a failure picture" test -n "$svg_text"
check "no label in the failure picture ends in an ellipsis" \
  bash -c '! grep -q "…" <<<"$1"' _ "$svg_text"
measure_js=$(cat <<'JS'
(function () {
  var bad = [], n = 0;
  document.querySelectorAll('svg.history').forEach(function (svg) {
    var vb = svg.viewBox.baseVal;
    var texts = [].slice.call(svg.querySelectorAll('text'));
    var boxes = texts.map(function (t) { return t.getBBox(); });
    boxes.forEach(function (b, i) {
      n++;
      if (b.x < 0 || b.x + b.width > vb.width || b.y < 0 || b.y + b.height > vb.height)
        bad.push('outside the picture: ' + texts[i].textContent);
      for (var j = i + 1; j < boxes.length; j++) {
        var c = boxes[j];  // 1.5 units of slack: a line's box takes the font's descent
        if (b.x + 1.5 < c.x + c.width && c.x + 1.5 < b.x + b.width &&
            b.y + 1.5 < c.y + c.height && c.y + 1.5 < b.y + b.height)
          bad.push('overlapping: ' + texts[i].textContent + ' / ' + texts[j].textContent);
      }
    });
  });
  var out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = 'measured ' + n + ' texts, ' + bad.length + ' cut\n' + bad.join('\n');
  document.body.appendChild(out);
})();
JS
)
# with_measure PAGE OUT [LONGER]: PAGE with the measuring script; LONGER makes the first
# caption line of the picture that much longer (the control).
with_measure() {
  python3 - "$1" "$2" "$measure_js" "${3:-}" <<'PY'
import base64, hashlib, sys
page = open(sys.argv[1], encoding="utf-8").read()
js = sys.argv[3]
digest = base64.b64encode(hashlib.sha256(js.encode()).digest()).decode()
page = page.replace("script-src ", "script-src 'sha256-%s' " % digest, 1)
page = page.replace("</body>", "<script>%s</script></body>" % js, 1)
caption = 'font-weight="bold">'
at = page.find(caption, page.find('class="failure-caption"'))
page = page[:at + len(caption)] + sys.argv[4] + page[at + len(caption):]
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY
}
# measured NAME: "measured N texts, K cut", as the measuring script wrote it.
measured() {
  sed -n 's/.*<pre id="measured">\(measured [0-9]* texts, [0-9]* cut\).*/\1/p' "$tmp/$1.dom"
}
with_measure "$page" "$tmp/measure.html"
visit "$tmp/measure.html" measure
check "the measuring script ran ($(measured measure))" \
  grep -q 'measured [1-9][0-9]* texts' <<<"$(measured measure)"
check "every text of the picture is inside it and overlaps no other" \
  grep -q ' 0 cut$' <<<"$(measured measure)"
grep -q ' 0 cut$' <<<"$(measured measure)" ||
  sed -n '/<pre id="measured">/,/<\/pre>/p' "$tmp/measure.dom" | head -n 10
# The control: a caption line longer than the picture is measured as cut.
with_measure "$page" "$tmp/measure-control.html" "$(printf 'x%.0s' $(seq 400))"
visit "$tmp/measure-control.html" measure-control
check "control: a text wider than the picture is measured as cut" \
  grep -qE ' [1-9][0-9]* cut$' <<<"$(measured measure-control)"
check "the measuring visit logs no CSP refusal" no_refusal measure

# The filter: its script runs under the page's policy (no refusal), shows the form and
# counts every rule; a URL fragment presets it, and then it hides the rows and failures that
# do not match. Without script (the page as written) nothing but the form is hidden.
check "the filter ran: the form is shown" bash -c "grep -q '<form id=\"filter\">' '$tmp/report.dom'"
check "the filter counts every rule and failure" \
  grep -qE 'id="filter-count">([0-9]+) of \1 rules, ([0-9]+) of \2 failures shown' "$tmp/report.dom"
check "no CSP refusal of the page's own script" no_refusal report
check "without script only the form is hidden" test "$(grep -o ' hidden[ >]' "$page" | wc -l)" -eq 1
rule=$(sed -n 's/.*<div class="failure" id="failure-1" data-rule="\([^"]*\)".*/\1/p' "$page")
check "the first failure names its rule ($rule)" test -n "$rule"
visit "$page" filtered "#rule=$rule&verdict=fail"
check "filtered: no CSP refusal" no_refusal filtered
check "filtered: the count says one rule" grep -qE 'id="filter-count">1 of [0-9]+ rules' \
  "$tmp/filtered.dom"
check "filtered: the failing rule's row is shown" \
  grep -qE "<tr [^>]*id=\"rule-$rule\" data-rule=\"$rule\" data-verdicts=\"[^\"]*fail[^\"]*\">" \
  "$tmp/filtered.dom"
check "filtered: other rule rows are hidden" \
  test "$(grep -cE '<tr [^>]*data-rule="[^"]*"[^>]* hidden=""' "$tmp/filtered.dom")" -gt 10
visit "$page" passing "#verdict=pass"
check "filtered by pass: every failure is hidden" \
  grep -qE 'id="filter-count">[0-9]+ of [0-9]+ rules, 0 of [1-9][0-9]* failures shown' \
  "$tmp/passing.dom"
check "filtered by pass: the failures' boxes carry hidden" \
  grep -qE '<div class="failure" id="failure-1"[^>]* hidden=""' "$tmp/passing.dom"
# The control: with a wrong hash in the policy the filter's script is refused, and the
# form stays hidden.
sed "s|script-src 'sha256-[^']*'|script-src 'sha256-AAAA'|" "$page" >"$tmp/wrong-hash.html"
visit "$tmp/wrong-hash.html" wrong-hash
check "control: a wrong hash is a CSP refusal" test -n "$(refusals wrong-hash)"
check "control: the refused filter leaves its form hidden" \
  grep -q '<form id="filter" hidden' "$tmp/wrong-hash.dom"

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
