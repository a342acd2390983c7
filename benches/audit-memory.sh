#!/usr/bin/env bash
# Peak memory of `crawlgate audit` on a large generated site (BENCHMARKS.md, "Audit memory";
# ARCHITECTURE.md, "Memory"). The site (benches/src/bin/crawl-bench-site.rs, `--generate`: pages
# made on request, none held in files or memory) is served by crawlgate's in-process server in a
# process of its own; the audit (release build, default options but the page bound, every report
# format) runs under /usr/bin/time -v. Prints pages audited, wall time, peak RSS and RSS per page.
#
# PAGES="1000 100000" chooses the sites (default: 10000 and 100000; the per-page cost is the
# difference between two sizes, so the fixed cost of the binary and runtime drops out).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=benches/common.sh
. benches/common.sh
sizes="${PAGES:-10000 100000}"

cargo build --release --quiet -p crawlgate-cli -p crawlgate-benches --bin crawlgate --bin crawl-bench-site

peak() { awk '/Maximum resident set size/ { print $NF }' "$1"; }

previous_pages=""
previous_rss=""
for pages in $sizes; do
  rm -f "$work/url"
  "$target/release/crawl-bench-site" "$pages" --generate >"$work/url" &
  server_pid=$!
  for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
  url="$(head -n1 "$work/url")"
  echo "== $pages-page site at $url (generated on request)"
  status=0
  /usr/bin/time -v "${CRAWLGATE_BIN:-$target/release/crawlgate}" audit "$url" --quiet \
    --max-pages $((pages + 10)) --output-dir "$work/report-$pages" \
    >"$work/audit.out" 2>"$work/audit.time" || status=$?
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  # Exit 1 only says that findings reached --fail-on; anything else is a failed run.
  if [ "$status" -gt 1 ]; then
    cat "$work/audit.out" "$work/audit.time" >&2
    exit 1
  fi
  fetched=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["pages_crawled"])' "$work/report-$pages/report.json")
  python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; print("  summary: %d URLs known, %d findings, bounds hit: %s, interrupted: %s" % (s["urls_known"], s["findings"], ", ".join(s["bounds_hit"]) or "none", s["interrupted"]))' "$work/report-$pages/report.json"
  rss=$(peak "$work/audit.time")
  seconds=$(elapsed "$work/audit.time")
  awk -v pages="$fetched" -v seconds="$seconds" -v rss="$rss" \
    'BEGIN { printf "crawlgate audit: %d pages in %.1f s, peak RSS %.1f MB (%.1f KB per page overall)\n", pages, seconds, rss / 1024, rss / pages }'
  ls -l "$work/report-$pages" | awk 'NR > 1 { printf "  %-12s %10d bytes\n", $NF, $5 }'
  if [ -n "$previous_pages" ]; then
    awk -v p0="$previous_pages" -v r0="$previous_rss" -v p1="$fetched" -v r1="$rss" \
      'BEGIN { printf "marginal cost: %.1f KB per page (RSS difference / page difference)\n", (r1 - r0) / (p1 - p0) }'
  fi
  previous_pages=$fetched
  previous_rss=$rss
done
