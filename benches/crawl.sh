#!/usr/bin/env bash
# Crawl speed and memory (BENCHMARKS.md, "Crawler"): a generated 2,000-page and 20,000-page site
# (benches/src/bin/crawl-bench-site.rs), served on 127.0.0.1 by nginx (Debian's nginx-light: one
# worker, access log off) or by crawlgate's in-process server running as its own process, crawled
# by `crawlgate crawl` (signal extraction on every page) and, in the same run, by `wget -r` as the
# baseline. Prints pages/s and peak RSS for each. Then the machine's ceiling, the same URLs fetched
# with no parsing at all (`curl --parallel --parallel-max 16` over the URL list), against a full
# `crawlgate audit` (crawl, extraction, rules, report.json; default limits): the audit / raw-fetch
# ratio of each run and their median.
#
# RUNS=N repeats each measurement (default 3); PAGES="2000 20000" chooses the sites;
# SERVER=nginx|inprocess chooses the server (default: nginx when installed); CEILING_ONLY=1 runs
# only the ceiling part; CRAWLGATE_BIN="A B …" audits with these binaries instead of the build,
# in turn within each run (each after a curl run of its own), for an A/B in one session.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=benches/common.sh
. benches/common.sh
runs="${RUNS:-3}"
sizes="${PAGES:-2000 20000}"
if [ -z "${SERVER:-}" ]; then
  if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then SERVER=nginx; else SERVER=inprocess; fi
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

cargo build --release --quiet -p crawlgate-cli -p crawlgate-benches --bin crawlgate --bin crawl-bench-site
read -r -a bins <<<"${CRAWLGATE_BIN:-$target/release/crawlgate}"

# `name pages seconds rss_kb`
report() {
  awk -v name="$1" -v pages="$2" -v seconds="$3" -v rss="$4" \
    'BEGIN { printf "%-28s %6d pages %7.3f s %8.0f pages/s  peak RSS %6.1f MB\n", name, pages, seconds, pages / seconds, rss / 1024 }'
}

# Elapsed seconds and peak RSS (KB) from /usr/bin/time -v output.
peak() { awk '/Maximum resident set size/ { print $NF }' "$1"; }

# Start the server for a site of $1 pages; sets server_pid and url.
start_server() {
  rm -f "$work/url"
  if [ "$SERVER" = nginx ]; then
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    rm -rf "$work/site" && mkdir -p "$work/site" "$work/nginx-tmp"
    "$target/release/crawl-bench-site" "$1" --write "$work/site" "http://127.0.0.1:$port"
    cat >"$work/nginx.conf" <<CONF
user root;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx-tmp;
  types { text/html html; text/plain txt; text/css css; text/javascript js; }
  server { listen 127.0.0.1:$port; root $work/site; index index.html; }
}
CONF
    "$nginx_bin" -p "$work" -c "$work/nginx.conf" -g 'daemon off;' &
    server_pid=$!
    url="http://127.0.0.1:$port/"
    for _ in $(seq 50); do curl -fso /dev/null "$url" 2>/dev/null && break; sleep 0.1; done
  else
    "$target/release/crawl-bench-site" "$1" >"$work/url" &
    server_pid=$!
    for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
    url="$(head -n1 "$work/url")"
  fi
}

for pages in $sizes; do
  start_server "$pages"
  echo "== $pages-page site at $url ($SERVER)"
  for run in $(seq "$runs"); do
    [ -n "${CEILING_ONLY:-}" ] && break
    # crawlgate: defaults (16 requests in flight, 8 per host), pages only like wget (no asset
    # checks, no sitemap probe), every page parsed for its signals; JSON lines to /dev/null.
    /usr/bin/time -v "$target/release/crawlgate" crawl "$url" --quiet --no-assets \
      --no-sitemap-probe --max-pages $((pages + 10)) --jsonl /dev/null \
      >"$work/crawlgate.out" 2>"$work/crawlgate.time"
    fetched=$(sed -n 's/^crawled .*: \([0-9]*\) pages,.*/\1/p' "$work/crawlgate.out")
    report "crawlgate (run $run)" "$fetched" "$(elapsed "$work/crawlgate.time")" "$(peak "$work/crawlgate.time")"

    # crawlgate with 64 per host, to show where the default's limit lies.
    /usr/bin/time -v "$target/release/crawlgate" crawl "$url" --quiet --no-assets \
      --no-sitemap-probe --max-pages $((pages + 10)) --concurrency 64 --per-host 64 \
      >"$work/crawlgate64.out" 2>"$work/crawlgate64.time"
    fetched=$(sed -n 's/^crawled .*: \([0-9]*\) pages,.*/\1/p' "$work/crawlgate64.out")
    report "crawlgate -c64 (run $run)" "$fetched" "$(elapsed "$work/crawlgate64.time")" "$(peak "$work/crawlgate64.time")"

    # wget: recursive, unlimited depth, files deleted after download.
    rm -rf "$work/wget"
    /usr/bin/time -v wget -r -l inf -nv --delete-after -P "$work/wget" "$url" \
      >"$work/wget.log" 2>"$work/wget.time" || true
    got=$(grep -c ' URL:' "$work/wget.time" || true)
    # robots.txt is one of the downloads.
    report "wget -r (run $run)" "$((got - 1))" "$(elapsed "$work/wget.time")" "$(peak "$work/wget.time")"
  done
  # The ceiling: every URL the audit fetches (robots.txt, the pages, their stylesheet and
  # script), fetched 16 at a time with no parsing; against the full audit of the same site.
  {
    echo "url = \"${url}robots.txt\""
    echo "url = \"${url}site.css\""
    echo "url = \"${url}site.js\""
    echo "url = \"$url\""
    for i in $(seq 1 $((pages - 1))); do echo "url = \"${url}p/$i.html\""; done
  } | sed 'a output = "/dev/null"' >"$work/urls.curl"
  declare -A ratios=()
  for run in $(seq "$runs"); do
    for bin in "${bins[@]}"; do
      # Wall time to the millisecond (GNU time's is to the hundredth, too coarse here).
      start=$(date +%s%N)
      /usr/bin/time -v curl --parallel --parallel-max 16 -s -K "$work/urls.curl" \
        >/dev/null 2>"$work/curl.time"
      raw=$(( $(date +%s%N) - start ))
      raw=$(awk -v ns="$raw" 'BEGIN { printf "%.3f", ns / 1e9 }')
      report "curl --parallel 16 (run $run)" "$pages" "$raw" "$(peak "$work/curl.time")"
      rm -rf "$work/audit"
      start=$(date +%s%N)
      /usr/bin/time -v "$bin" audit "$url" --quiet --fail-on never \
        --max-pages $((pages + 10)) --format json --output-dir "$work/audit" \
        >"$work/audit.out" 2>"$work/audit.time"
      full=$(( $(date +%s%N) - start ))
      full=$(awk -v ns="$full" 'BEGIN { printf "%.3f", ns / 1e9 }')
      report "crawlgate audit (run $run)" "$pages" "$full" "$(peak "$work/audit.time")"
      ratio=$(awk -v a="$full" -v b="$raw" 'BEGIN { printf "%.2f", a / b }')
      echo "audit / raw fetch (run $run, $bin): $ratio"
      ratios[$bin]="${ratios[$bin]:-} $ratio"
    done
  done
  for bin in "${bins[@]}"; do
    echo "audit / raw fetch, median of $runs ($bin): $(echo "${ratios[$bin]}" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
  done
  unset ratios
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
done
