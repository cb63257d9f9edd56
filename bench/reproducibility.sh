#!/usr/bin/env bash
# Reproducibility benchmark (issue 23 item 3): the same deterministic program (repro.Mix, fixed
# work) run ROUNDS times plain and ROUNDS times under 'hyprof profile' with default settings,
# alternating. Printed per method whose median deducted inclusive time is at least 1 ms: the median
# of its deducted inclusive and exclusive times over the runs and each one's largest deviation from
# that median (target: within 5 %), beside the same spread of the program's own clock, plain and
# profiled (what the machine's own noise is), and the spread of each method's share of its run (its
# deducted inclusive time over the program's own profiled clock in that run: a whole run slowed by
# the machine moves every method alike and leaves the share; what still moves is the attribution,
# or noise confined to part of a run). Count-only rows are listed apart: their time columns
# hold only their timed calls (see README, "Count-only rows"); their call counts must be equal in
# every run. Nothing is asserted on times; a run whose results or call counts differ fails.
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: bench/reproducibility.sh [-h|--help]
Runs repro.Mix plain and under 'hyprof profile' ROUNDS times each, alternating, and prints each
method's deducted times over the runs with their largest deviation from the median.
Environment:
  ROUNDS=N       runs of each variant (default 5)
  MIX_ROUNDS=N   rounds of the mix inside each run (default 3, about 0.3 s plain; more: a longer run)
  JAVA_OPTS=...  JVM options for the program (default: none)
  KEEP=DIR       keep every run's output, session and report CSV in DIR
Needs the CLI built: mvn -o -q package -pl cli -am -DskipTests
USAGE
}
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") ;;
  *) echo "reproducibility.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac
ROUNDS=${ROUNDS:-5}
JAVA_OPTS=${JAVA_OPTS:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SRC="$HERE/src/main/java/repro/Mix.java"
fail() { echo "reproducibility.sh: $*" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "reproducibility.sh: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 2; }
MIX_ROUNDS=${MIX_ROUNDS:-3}
[[ "$MIX_ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "reproducibility.sh: MIX_ROUNDS must be a positive number, not '$MIX_ROUNDS'" >&2; exit 2; }
[ -f "$ROOT/cli/target/hyprof.jar" ] || fail "no $ROOT/cli/target/hyprof.jar: build the CLI first (mvn -o -q package -pl cli -am -DskipTests)"
for tool in java javac python3; do command -v "$tool" >/dev/null || fail "$tool not found on PATH"; done
hyprof() { HYPROF_NO_BUILD=1 "$ROOT/hyprof" "$@"; }

if [ -n "${KEEP:-}" ]; then WORK=$(mkdir -p "$KEEP" && cd "$KEEP" && pwd); else
  WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
fi
rm -rf "$WORK/classes"
javac --release 17 -d "$WORK/classes" "$SRC" || fail "javac $SRC failed"
# shellcheck disable=SC2206
PROGRAM=(java $JAVA_OPTS -cp "$WORK/classes" repro.Mix "$MIX_ROUNDS")

for r in $(seq "$ROUNDS"); do
  # the first of a round alternates, so neither variant always runs on a cold page cache
  if [ $(( r % 2 )) -eq 1 ]; then ORDER=(plain profiled); else ORDER=(profiled plain); fi
  for v in "${ORDER[@]}"; do
    base="$WORK/$r-$v"
    case $v in
      plain) "${PROGRAM[@]}" >"$base.out" 2>"$base.err" ;;
      profiled) hyprof profile --force -o "$base.db" -- "${PROGRAM[@]}" >"$base.out" 2>"$base.err" ;;
    esac || { cat "$base.err" >&2; fail "run $r, $v failed"; }
    if [ "$v" = profiled ]; then
      hyprof report "$base.db" --format csv --top 0 >"$base.csv" 2>"$base.err" \
        || { cat "$base.err" >&2; fail "run $r: hyprof report failed"; }
      hyprof report "$base.db" --top 1 2>/dev/null | grep '^calibration' >"$base.cal" || true
      [ -n "${KEEP:-}" ] || rm -f "$base.db" "$base.db-shm" "$base.db-wal"
    fi
  done
  echo "round $r/$ROUNDS done" >&2
done

python3 - "$WORK" "$ROUNDS" "$MIX_ROUNDS" <<'PY'
import csv, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
med = statistics.median

def die(msg):
    sys.exit("reproducibility.sh: " + msg)

def own(v):
    xs, checks = [], set()
    for r in range(1, rounds + 1):
        line = [l for l in open(f"{work}/{r}-{v}.out") if l.startswith("repro ")]
        if not line:
            die(f"run {r}, {v}: no 'repro' line in the program's output")
        f = dict(kv.split("=", 1) for kv in line[0].split()[1:])
        xs.append(int(f["ns"]))
        checks.add(f["check"])
    if len(checks) != 1:
        die(f"{v}: results differ between runs ({' '.join(sorted(checks))})")
    return xs

def spread(xs):
    m = med(xs)
    return m, (max(abs(x - m) for x in xs) / m * 100.0) if m else 0.0

rows = {}
for r in range(1, rounds + 1):
    for row in csv.DictReader(open(f"{work}/{r}-profiled.csv")):
        rows.setdefault(row["method"], []).append(row)
calls_differ = [m for m, rs in rows.items() if len(rs) != rounds or len({x["calls"] for x in rs}) != 1]
if calls_differ:
    die("call counts differ between runs: " + ", ".join(calls_differ))

plain, prof = own("plain"), own("profiled")
print(f"Reproducibility: repro.Mix {sys.argv[3]}, {rounds} runs of each variant, alternating; medians in ms, "
      f"spread = largest |run - median| / median")
for name, xs in (("program's own clock, plain", plain), ("program's own clock, profiled", prof)):
    m, s = spread(xs)
    print(f"  {name:32} {m / 1e6:9.1f} ms  spread {s:5.1f} %   runs: {' '.join(f'{x / 1e6:.1f}' for x in xs)}")
cals = [open(f"{work}/{r}-profiled.cal").read().strip() for r in range(1, rounds + 1)]
print("  calibration of each run:")
for c in cals:
    print("    " + c)
print()
hdr = f"{'method':58} {'incl ms':>9} {'spread':>7} {'excl ms':>9} {'spread':>7} {'share':>6} {'spread':>7}  deducted incl ms of each run"
print(hdr)
print("-" * len(hdr))
worst, worst_share, timed, counted = 0.0, 0.0, 0, []
for m, rs in sorted(rows.items(), key=lambda kv: -med(int(x["incl_ns"]) for x in kv[1])):
    incl = [int(x["incl_ns"]) for x in rs]
    excl = [int(x["excl_ns"]) for x in rs]
    if any(int(x["count_only_calls"] or 0) > 0 for x in rs):
        counted.append(m)
        continue
    mi, si = spread(incl)
    if mi < 1e6:
        continue
    me, se = spread(excl)
    se_shown = se if me >= 1e6 else float("nan")
    ms, ss = spread([i / p for i, p in zip(incl, prof)])
    timed += 1
    worst = max(worst, si, se if me >= 1e6 else 0.0)
    worst_share = max(worst_share, ss)
    print(f"{m[:58]:58} {mi / 1e6:9.2f} {si:6.1f}% {me / 1e6:9.2f} {se_shown:6.1f}% {ms * 100:5.1f}% {ss:6.1f}%  "
          f"{' '.join(f'{x / 1e6:.2f}' for x in incl)}")
print()
print(f"{timed} timed methods of at least 1 ms: largest spread {worst:.1f} % (target: within 5 %; "
      f"the program's own clock, profiled: {spread(prof)[1]:.1f} %); largest spread of a share of its run: {worst_share:.1f} %")
print(f"count-only rows (calls equal in every run, times are of their timed calls only): {len(counted)}")
for m in counted:
    rs = rows[m]
    print(f"  {m}: {rs[0]['calls']} calls; timed calls' incl ms per run: "
          + " ".join(f"{int(x['incl_ns']) / 1e6:.2f}" for x in rs))
PY
