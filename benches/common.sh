# Sourced by the bench scripts: a scratch folder and a background server, both cleaned up on exit,
# and readers of `/usr/bin/time -v` output. Sets `target` and `work`; a script that starts a
# server stores its pid in `server_pid`.
target="${CARGO_TARGET_DIR:-target}"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Seconds of wall time in a `/usr/bin/time -v` report.
elapsed() { awk '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"; }
