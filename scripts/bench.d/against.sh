#!/usr/bin/env bash
# scripts/bench --against REV [seconds]: the flow benchmark, this tree against REV, side by side.
# Builds REV (release) in a temporary git worktree (its binary is kept in .build/bench-revs/<sha>
# so the next run against the same commit skips the build) and the current tree, then alternates
# the two binaries, ROUNDS rounds each (default 3; the order flips every round: A B, B A, …), each
# run on a fresh SQLite data directory with the same settings and the same load:
#   full flows (scripts/bench.d/flow.lua, wrk -t2, BENCH_CONNECTIONS connections, default 16)
#   then the same flows at BENCH_LOW_CONNECTIONS (default 4): p99 per request at lower load
# and prints, for each run and as medians, flows/s, service CPU per flow (user + system time from
# /proc over the flow run), p99 per request, peak RSS (VmHWM), and the ratio this tree ÷ REV.
# BENCH_POSTGRES=1 adds the same alternation on PostgreSQL (a local server, scripts/postgres; a
# fresh database per run): one replica's CPU per flow and the server's.
# 127.0.0.1 only; bounded: about ROUNDS × 2 × (2 or 3) × seconds, plus the builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
rev="${1:?usage: scripts/bench --against REV [seconds]}"
duration="${2:-10}"
rounds="${ROUNDS:-3}"
conns="${BENCH_CONNECTIONS:-16}"
low="${BENCH_LOW_CONNECTIONS:-4}"
command -v wrk >/dev/null || scripts/install-deps --test

sha="$(git rev-parse --verify "$rev^{commit}")"
short="$(git rev-parse --short "$sha")"
work="$(mktemp -d)"
pids=()
tree=""
cleanup() {
  for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  [ -n "$tree" ] && git worktree remove --force "$tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The binary of REV: built once in a temporary worktree, kept by commit.
cached=".build/bench-revs/$sha/phone-verify"
if [ ! -x "$cached" ]; then
  tree="$work/tree"
  git worktree add --detach "$tree" "$sha" >/dev/null 2>&1
  echo "building $short (release) in a temporary worktree…" >&2
  (cd "$tree" && swift build -c release --product phone-verify >"$work/build-rev.log" 2>&1) \
    || { tail -20 "$work/build-rev.log" >&2; exit 1; }
  mkdir -p "$(dirname "$cached")"
  cp "$tree/.build/release/phone-verify" "$cached"
  git worktree remove --force "$tree" >/dev/null 2>&1 || true; tree=""
fi
echo "building this tree (release)…" >&2
swift build -c release --product phone-verify >"$work/build-head.log" 2>&1 \
  || { tail -20 "$work/build-head.log" >&2; exit 1; }
cp .build/release/phone-verify "$work/head"
cp "$cached" "$work/rev"
head_name="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+dirty')"

# The settings of scripts/bench: limits and fraud guard on but not binding (one client IP).
export PHONE_VERIFY_LIMITS="${PHONE_VERIFY_LIMITS:-phone_send=5/1h,10/1d;ip_send=1000000/10m;ip_check=1000000/10m;prefix_send=1000000/1h;global_send=1000000/1m;phone_failed_check=10/1d}"
export PHONE_VERIFY_FRAUD_MIN_SENDS="${PHONE_VERIFY_FRAUD_MIN_SENDS:-1000000}"
export PHONE_VERIFY_FRAUD_WATCH_SENDS="${PHONE_VERIFY_FRAUD_WATCH_SENDS:-1000000}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

# start BIN NAME: the binary on a fresh data dir; sets $base and $pid.
start() {
  local bin="$1" name="$2"
  mkdir -p "$work/$name"
  PHONE_VERIFY_DATA_DIR="$work/$name" PHONE_VERIFY_LISTEN=127.0.0.1:0 PHONE_VERIFY_LOG_LEVEL=warning \
    "$bin" >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1 100); do grep -q "listening on" "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
  base="$(grep -o 'http://[0-9.:]*' "$work/$name.out" | head -1 || true)"
  [ -n "$base" ] || { echo "$name did not start" >&2; cat "$work/$name.err" >&2; exit 1; }
}
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "${work:?}/$1"; }
cpu() { awk '{print $14 + $15}' "$1"; }
pgcpu() { for p in $(pgrep -x postgres); do cpu /proc/"$p"/stat 2>/dev/null; done | awk '{s += $1} END {print s + 0}'; }
ticks=$(getconf CLK_TCK)
flows_of() { grep -o 'FLOWS.*= [0-9]*' "$1" | grep -o '[0-9]*$'; }
count_of() { grep -o 'FLOWS [0-9]*' "$1" | grep -o '[0-9]*$'; }
# p99 in ms from wrk's latency distribution (us, ms or s).
p99_of() { awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f", v }' "$1"; }
per_flow() { awk -v t="$1" -v n="$2" -v hz="$ticks" 'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e6 / n; else print "nan" }'; }

# run WHICH ROUND: one SQLite run of a binary; appends a line to $work/results.
run() {
  local which="$1" round="$2" name="$1-$2"
  start "$work/$which" "$name"
  # A short warm-up so both binaries start measuring with loaded code and a database with rows.
  wrk -t2 -c"$conns" -d1s -s scripts/bench.d/flow.lua "$base" >/dev/null
  local c0 c1
  c0=$(cpu /proc/"$pid"/stat)
  wrk -t2 -c"$conns" -d"${duration}s" --latency -s scripts/bench.d/flow.lua "$base" >"$work/$name.flow"
  c1=$(cpu /proc/"$pid"/stat)
  wrk -t2 -c"$low" -d"${duration}s" --latency -s scripts/bench.d/flow.lua "$base" >"$work/$name.low"
  local rss; rss=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$pid/status")
  stop "$name"
  echo "$which $round $(flows_of "$work/$name.flow") $(per_flow $((c1 - c0)) "$(count_of "$work/$name.flow")") $(p99_of "$work/$name.flow") $(flows_of "$work/$name.low") $(p99_of "$work/$name.low") $rss" >>"$work/results"
}

# pgrun WHICH ROUND: one PostgreSQL run (fresh database); appends to $work/pgresults.
pgrun() {
  local which="$1" round="$2" name="pg-$1-$2" db="bench_ab_$$_$1_$2"
  psql -q "$pg_url" -c "CREATE DATABASE $db" >/dev/null
  PHONE_VERIFY_DATABASE_URL="${pg_url%/*}/$db" start "$work/$which" "$name"
  wrk -t2 -c"$conns" -d1s -s scripts/bench.d/flow.lua "$base" >/dev/null
  local c0 c1 p0 p1
  c0=$(cpu /proc/"$pid"/stat); p0=$(pgcpu)
  wrk -t2 -c"$conns" -d"${duration}s" --latency -s scripts/bench.d/flow.lua "$base" >"$work/$name.flow"
  c1=$(cpu /proc/"$pid"/stat); p1=$(pgcpu)
  stop "$name"
  psql -q "$pg_url" -c "DROP DATABASE $db WITH (FORCE)" >/dev/null 2>&1 || true
  local n; n=$(count_of "$work/$name.flow")
  echo "$which $round $(flows_of "$work/$name.flow") $(per_flow $((c1 - c0)) "$n") $(per_flow $((p1 - p0)) "$n") $(p99_of "$work/$name.flow")" >>"$work/pgresults"
}

order() { if [ $(($1 % 2)) -eq 1 ]; then echo "rev head"; else echo "head rev"; fi; }
for r in $(seq 1 "$rounds"); do
  for which in $(order "$r"); do run "$which" "$r"; done
done
if [ "${BENCH_POSTGRES:-0}" = "1" ]; then
  pg_url="$(scripts/postgres start | tail -1)"
  key="$work/signing-key.pem"; openssl genpkey -algorithm ed25519 -out "$key" 2>/dev/null
  export PHONE_VERIFY_SIGNING_KEY_FILE="$key" PHONE_VERIFY_CODE_SECRET="bench-code-secret-0123456789abcdef0123456789"
  for r in $(seq 1 "$rounds"); do
    for which in $(order "$r"); do pgrun "$which" "$r"; done
  done
fi

# column FILE WHICH N: the values of field N for one binary, in round order, and their median.
values() { awk -v w="$2" -v n="$3" '$1 == w { printf "%s%s", sep, $n; sep = " · " }' "$1"; }
median() { awk -v w="$2" -v n="$3" '$1 == w { print $n }' "$1" | sort -g | awk '{ v[++k] = $1 } END { if (k % 2) print v[(k + 1) / 2]; else printf "%.2f\n", (v[k / 2] + v[k / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "nan" }'; }
row() { # FILE FIELD LABEL UNIT
  local a b; a=$(median "$1" rev "$2"); b=$(median "$1" head "$2")
  echo "| $3 | $(values "$1" rev "$2") (median $a$4) | $(values "$1" head "$2") (median $b$4) | $(ratio "$b" "$a") |"
}

echo "# PhoneVerify A/B flow benchmark $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo
echo "machine: $(nproc) cores; ${duration}s per run, $rounds alternating rounds, fresh SQLite each run; wrk -t2 on the same cores; settings of scripts/bench (limits and fraud guard on, not binding; events off; log level warning)"
echo
echo "| measure | $short (REV) | $head_name (this tree) | this ÷ REV |"
echo "| --- | --- | --- | --- |"
row "$work/results" 3 "full flows/s, $conns connections" ""
row "$work/results" 4 "service CPU per flow ($conns connections)" " µs"
row "$work/results" 5 "p99 per request, $conns connections" " ms"
row "$work/results" 6 "full flows/s, $low connections" ""
row "$work/results" 7 "p99 per request, $low connections" " ms"
row "$work/results" 8 "peak RSS" " MiB"
if [ -s "$work/pgresults" ] 2>/dev/null; then
  row "$work/pgresults" 3 "PostgreSQL: full flows/s, $conns connections" ""
  row "$work/pgresults" 4 "PostgreSQL: replica CPU per flow" " µs"
  row "$work/pgresults" 5 "PostgreSQL: server CPU per flow" " µs"
  row "$work/pgresults" 6 "PostgreSQL: p99 per request" " ms"
fi
