#!/usr/bin/env bash
# Fill fuzz/corpus/<target>/ with seeds: small files from the repository's fixtures (the shared
# corpus is copied there) and the hand-written ones in fuzz/seeds/. fuzz/corpus is gitignored.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../fixtures
max_bytes=262144 # libFuzzer's -max_len is far smaller; larger seeds only slow the first pass

copy() { # target, then files
  local target=$1; shift
  mkdir -p "corpus/$target"
  for file in "$@"; do
    [ -f "$file" ] || continue
    [ "$(stat -c %s "$file")" -le "$max_bytes" ] || continue
    # Named by the path under fixtures/ (a leading `../` would make every name a hidden file).
    cp "$file" "corpus/$target/$(echo "${file#"$fixtures"/}" | tr '/' '_')"
  done
}

mapfile -t robots < <(find "$fixtures/robots" "$fixtures/corpus/robots" "$fixtures/rules" -type f \( -name '*.txt' -o -name 'robots*' \) | sort)
copy robots "${robots[@]}"
mapfile -t sitemaps < <(find "$fixtures/sitemaps" "$fixtures/corpus/sitemaps" -type f \( -name '*.xml' -o -name '*.gz' -o -name '*.txt' -o -name '*.rss' -o -name '*.atom' \) | sort)
copy sitemap_plain "${sitemaps[@]}"
mapfile -t plain_sitemaps < <(printf '%s\n' "${sitemaps[@]}" | grep -v '\.gz$')
copy sitemap_gzip "${plain_sitemaps[@]}"
mapfile -t pages < <(find "$fixtures/pages" -type f -name '*.html' | sort)
copy signals "${pages[@]}"
# A page with its headers: `Name: value` lines, an empty line, the body (the target's format).
for headers in "$fixtures"/pages/*.headers; do
  page=${headers%.headers}.html
  [ -f "$page" ] || continue
  { cat "$headers"; printf '\n\n'; cat "$page"; } > "corpus/signals/with-headers_$(basename "$page")"
done
copy link_header seeds/link_header/*
copy datetime seeds/datetime/*
# Values met in the fixtures: every `Link:` header value, and distinct <lastmod> values (at most
# 200), one file each.
n=0
while IFS= read -r value; do
  n=$((n + 1)); printf '%s' "$value" > "corpus/link_header/fixture-$n"
done < <(grep -rhi '^link:' "$fixtures"/pages/*.headers | sed 's/^[Ll]ink: *//' | sort -u)
n=0
while IFS= read -r value; do
  n=$((n + 1)); printf '%s' "$value" > "corpus/datetime/fixture-$n"
done < <(grep -rhoi '<lastmod>[^<]*</lastmod>' "$fixtures/sitemaps" "$fixtures/corpus/sitemaps" \
  | sed 's/<[^>]*>//g' | sort -u | head -n 200)
for target in robots sitemap_plain sitemap_gzip signals link_header datetime; do
  printf '%-14s %s seeds\n' "$target" "$(find "corpus/$target" -type f | wc -l)"
done
