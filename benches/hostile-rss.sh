#!/usr/bin/env bash
# Peak memory, wall time and report sizes of `crawlgate audit` on the hostile sites of
# benches/src/bin/hostile-site.rs (BENCHMARKS.md, "Hostile sites"), default bounds, every report
# format. Builds the release binaries (or takes CRAWLGATE_BIN, for A/B runs). CASES picks the
# sites (default: all); MAX_TIME is passed as --max-time (default 300); each audit runs under an
# address-space limit of LIMIT_MB (default 8192), so a case that would take the machine fails
# instead.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=benches/common.sh
. benches/common.sh
cases="${CASES:-sitemap-fanout sitemap-findings url-multiply robots-blank robots-gzip-bomb robots-origins deep-nesting attributes template-flood}"
max_time="${MAX_TIME:-300}"
limit_mb="${LIMIT_MB:-8192}"

cargo build --release --quiet -p crawlgate-cli -p crawlgate-benches --bin crawlgate --bin hostile-site
bin="${CRAWLGATE_BIN:-$target/release/crawlgate}"

for case in $cases; do
  rm -f "$work/url"
  "$target/release/hostile-site" "$case" >"$work/url" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
  url="$(head -n1 "$work/url")"
  status=0
  ( ulimit -v $((limit_mb * 1024)); exec /usr/bin/time -v "$bin" audit "$url" --quiet --max-time "$max_time" \
    --fail-on never --output-dir "$work/report" ) >"$work/audit.out" 2>"$work/audit.time" || status=$?
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  seconds=$(elapsed "$work/audit.time")
  rss=$(awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$work/audit.time")
  sizes=""
  for file in report.html report.md report.json; do
    if [ -f "$work/report/$file" ]; then
      sizes="$sizes $file $(numfmt --to=iec --suffix=B "$(stat -c %s "$work/report/$file")")"
    fi
  done
  bounds=""
  if [ -f "$work/report/report.json" ]; then
    bounds=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; print("bounds hit: %s" % (", ".join(s["bounds_hit"]) or "none"))' "$work/report/report.json")
  fi
  printf '%-17s exit %3s  %7.1f s  peak RSS %8s MB %s  %s\n' "$case" "$status" "$seconds" "$rss" "$sizes" "$bounds"
  if [ "$status" -gt 1 ]; then tail -n 3 "$work/audit.out" | sed 's/^/    /'; fi
  rm -rf "$work/report"
done
