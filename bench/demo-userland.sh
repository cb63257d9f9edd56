#!/usr/bin/env bash
# What the default userland costs the demo: ./hyprof demo with --userland stubs and bionic,
# alternated ROUNDS times (default 2) in one session; per run wall and CPU (user+sys, children
# included) seconds and the session's native instructions. Never asserts a time. Needs GNU time.
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${ROUNDS:-2}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$HERE/hyprof" --version >/dev/null # build first, outside the timings
for round in $(seq 1 "$ROUNDS"); do
  for u in stubs bionic; do
    db="$OUT/$u-$round.db"
    /usr/bin/time -f "%e %U %S" -o "$OUT/t" "$HERE/hyprof" demo --userland "$u" -o "$db" >"$OUT/out" 2>&1 || { tail -5 "$OUT/out"; exit 1; }
    read -r wall user sys <"$OUT/t"
    instr=$("$HERE/hyprof" report "$db" --format csv | python3 -c \
      "import csv,sys; print(sum(int(r['native_instr'] or 0) for r in csv.DictReader(sys.stdin)))")
    echo "$u round $round: wall ${wall} s, cpu $(python3 -c "print(round($user + $sys, 1))") s, native_instr $instr, load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
