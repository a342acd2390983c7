#!/usr/bin/env bash
# `crawlgate audit --render` on a generated site (BENCHMARKS.md, "Rendering"): the same audit
# without --render first, as the baseline of the same run; then with it, default render settings.
# Prints wall times, pages rendered per second (rendering time = the difference), crawlgate's
# own peak RSS (VmHWM, sampled) and the browser's peak memory (PSS and RSS summed
# over the chromium processes of crawlgate's profile folders, sampled every 0.5 s). PAGES (default 200) sizes the site.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=benches/common.sh
. benches/common.sh
pages="${PAGES:-200}"

cargo build --release --quiet -p crawlgate-cli -p crawlgate-benches --bin crawlgate --bin crawl-bench-site
bin="${CRAWLGATE_BIN:-$target/release/crawlgate}"

"$target/release/crawl-bench-site" "$pages" --generate >"$work/url" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
url="$(head -n1 "$work/url")"

peak() { awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$1"; }

# The browser's memory: every process whose command is chromium, summed (PSS counts shared pages
# once; RSS once per process).
browser_memory() {
  local pss=0 rss=0 p r
  for pid in $(pgrep -f -- 'crawlgate-chromium-' || true); do
    # A process may end between the listing and the read: it then counts nothing.
    p=$(awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null || true)
    r=$(awk '/^Rss:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null || true)
    pss=$((pss + ${p:-0}))
    rss=$((rss + ${r:-0}))
  done
  echo "$pss $rss"
}

run() {
  local name="$1"
  shift
  /usr/bin/time -v "$bin" audit "$url" --quiet --fail-on never --format json \
    --max-pages $((pages + 10)) --output-dir "$work/$name" "$@" >"$work/$name.out" 2>"$work/$name.time"
}

run plain
run rendered --render --render-pages "$pages" &
audit_pid=$!
peak_pss=0
peak_rss=0
own_peak=0
while kill -0 "$audit_pid" 2>/dev/null; do
  read -r pss rss < <(browser_memory)
  [ "$pss" -gt "$peak_pss" ] && peak_pss=$pss
  [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
  # crawlgate's own high-water mark (/usr/bin/time's figure is the largest process it waited
  # for, which is the browser's).
  for pid in $(pgrep -x crawlgate || true); do
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ "${hwm:-0}" -gt "$own_peak" ] && own_peak=$hwm
  done
  sleep 0.5
done
wait "$audit_pid"

rendered=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["crawl"].get("pages_rendered", 0))' "$work/rendered/report.json")
plain_s=$(elapsed "$work/plain.time")
render_s=$(elapsed "$work/rendered.time")
awk -v p="$plain_s" -v r="$render_s" -v n="$rendered" -v c1="$(peak "$work/plain.time")" \
  -v own="$own_peak" -v pss="$peak_pss" -v rss="$peak_rss" 'BEGIN {
  printf "audit without --render: %.1f s, crawlgate peak RSS %s MB\n", p, c1
  printf "audit with --render:    %.1f s, crawlgate peak RSS %.1f MB (%.1fx), %d pages rendered\n", r, own / 1024, own / 1024 / c1, n
  printf "rendering: %.2f pages/s; browser peak %.0f MB PSS (%.0f MB RSS summed)\n", n / (r - p), pss / 1024, rss / 1024
}'
