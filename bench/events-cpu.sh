#!/usr/bin/env bash
# Events-mode cost of thread CPU time in the event records (issue 18: the .trace export's
# thread-CPU clock), before against after, in one run: ProbeBench's recording token pairs with
# the event log (mode=events) under cpuClock=off, sampled and dual, from two builds — BEFORE (a git
# revision, built from `git archive` in a temporary directory: no worktree is touched) and this
# tree — with rounds alternating the builds so machine noise hits both alike. Prints each build's
# median per benchmark and clock, and the ratio after/before.
#   BEFORE=<rev> ROUNDS=3 BENCH='ProbeBench.tokenPairOn' bench/events-cpu.sh
# Settings (environment variables): ROUNDS (default 3), MODES (default events).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BEFORE=${BEFORE:?set BEFORE to the git revision to compare with (e.g. the commit before the change)}
ROUNDS=${ROUNDS:-3}
BENCH=${BENCH:-ProbeBench.tokenPairOn}
MODES=${MODES:-events}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/before"
git -C "$ROOT" archive "$BEFORE" | tar -x -C "$WORK/before"
(cd "$WORK/before" && mvn -o -B -q -DskipTests package -pl bench -am)
(cd "$ROOT" && mvn -o -B -q -DskipTests package -pl bench -am) # this tree, as it is now
cp "$WORK/before/bench/target/benchmarks.jar" "$WORK/before.jar"
cp "$HERE/target/benchmarks.jar" "$WORK/after.jar"
for r in $(seq "$ROUNDS"); do
  for v in before after; do
    java -jar "$WORK/$v.jar" "$BENCH" -p mode="$MODES" -p cpuClock=off,sampled,dual -f 1 -wi 3 -w 1s -i 5 -r 1s \
        -rf csv -rff "$WORK/$v-$r.csv" > "$WORK/$v-$r.log" 2>&1
  done
  echo "round $r/$ROUNDS done ($(uptime | sed 's/.*load/load/'))" >&2
done
python3 - "$WORK" "$ROUNDS" <<'PY'
import csv, statistics, sys, os
work, rounds = sys.argv[1], int(sys.argv[2])
res = {}  # (benchmark, mode, clock) -> variant -> [score per round]
for v in ("before", "after"):
    for r in range(1, rounds + 1):
        with open(os.path.join(work, f"{v}-{r}.csv")) as f:
            for row in csv.DictReader(f):
                key = (row["Benchmark"].split(".")[-1], row["Param: mode"], row["Param: cpuClock"])
                res.setdefault(key, {}).setdefault(v, []).append(float(row["Score"]))
print(f"{'benchmark':22} {'mode':10} {'cpuClock':8} {'before ns':>10} {'after ns':>10} {'after/before':>13}   runs before | after")
for key in sorted(res):
    b, a = res[key]["before"], res[key]["after"]
    mb, ma = statistics.median(b), statistics.median(a)
    print(f"{key[0]:22} {key[1]:10} {key[2]:8} {mb:10.1f} {ma:10.1f} {ma / mb:13.3f}   "
          f"{' '.join(f'{x:.1f}' for x in b)} | {' '.join(f'{x:.1f}' for x in a)}")
PY
