#!/usr/bin/env bash
# Overhead deduction in one JVM (issue 15): OverheadIT's workloads (workload.CallHeavy) plain and
# offline-instrumented side by side in one JVM, taking turns root() call by root() call
# (harness.DeductionAB), so that machine noise, which moves the plain time of JVMs started a few
# seconds apart by 20-40 % on the CI machine kind, hits both copies alike. Per case, JVMS JVMs;
# each gives the plain mean of its root() calls (the program's own clock), the instrumented copy's
# own mean, and hyprof's deducted and raw inclusive time of the same calls (the session, imported
# and reported). Printed: per case the median over the JVMs of each figure's error against the
# same JVM's plain mean, and every JVM's deducted error. Nothing is asserted on times; the script
# stops if a run fails or the session does not hold exactly the measured root() calls.
# Settings (environment variables): JVMS (per case, default 5), CALLS (measured root() calls per
# copy and JVM, default 400), WARMUP_MS (warm-up per copy, default 1000), CASES (default: OverheadIT's
# eight, "kind/resolutions" with resolutions separated by ':', e.g. "small/process:thread:method"),
# KEEP=DIR (keep the sessions and reports), INSTRUMENT_OPTS (more options of 'hyprof instrument', e.g.
# "--probe-sites indy-inline"), BEFORE=DIR (another checkout with its CLI built, e.g. main before a
# change: its instrumented jar, with its runtime, runs the same cases in the same rounds, JVMs of the
# two taking turns, and the table gives both). Needs the CLI built (mvn -o -q package -pl cli -am -DskipTests).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
. "$(dirname "$0")/lib/before.sh" # BEFORE=DIR: before_hyprof
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
JVMS=${JVMS:-5}; CALLS=${CALLS:-400}; WARMUP_MS=${WARMUP_MS:-1000}
CASES=${CASES:-"coarse/process:thread:method coarse/process:thread:method:loop kernels/process:thread:method mixed/process:thread:method recursion/process:thread:method small/process:thread:method loops/process:thread:method:loop kernels/process:thread:method:loop"}
for v in JVMS CALLS WARMUP_MS; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "deduction-ab.sh: $v must be a positive number, not '${!v}'" >&2; exit 2; }
done
SAMPLES="$ROOT/cli/target/lib/hyprof-samples-java.jar"
[ -f "$ROOT/cli/target/hyprof.jar" ] && [ -f "$SAMPLES" ] \
  || { echo "deduction-ab.sh: build the CLI first (mvn -o -q package -pl cli -am -DskipTests)" >&2; exit 1; }
hyprof() { HYPROF_NO_BUILD=1 "$ROOT/hyprof" "$@"; } # never rebuild between runs
if [ -n "${KEEP:-}" ]; then WORK=$(mkdir -p "$KEEP" && cd "$KEEP" && pwd); else
  WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
fi
VARIANTS="now"
rm -f "$WORK"/callheavy-*.jar "$WORK"/callheavy-*.jar.manifest.tsv
# shellcheck disable=SC2086 # INSTRUMENT_OPTS: several words
hyprof instrument "$SAMPLES" --include workload.CallHeavy ${INSTRUMENT_OPTS:-} -o "$WORK/callheavy-now.jar" --quiet
if [ -n "${BEFORE:-}" ]; then
  # shellcheck disable=SC2086
  before_hyprof instrument "$SAMPLES" --include workload.CallHeavy ${INSTRUMENT_OPTS:-} \
    -o "$WORK/callheavy-before.jar" --quiet
  VARIANTS="before now"
fi
: >"$WORK/results.txt"
for c in $CASES; do
  kind=${c%%/*}; res=${c#*/}
  for j in $(seq "$JVMS"); do
    for v in $VARIANTS; do
      base="$WORK/$kind-${res//:/_}-$v-$j"
      java -Dhyprof.options=out="$base.hyprof",resolutions="$res" -cp "$SAMPLES" harness.DeductionAB \
          "$kind" 200 "$WARMUP_MS" "$CALLS" "$SAMPLES" "$WORK/callheavy-$v.jar" >"$base.out" 2>"$base.err" \
        || { cat "$base.err" >&2; echo "deduction-ab.sh: $kind $res, $v, JVM $j failed" >&2; exit 1; }
      hyprof import "$base.hyprof" -o "$base.db" --force >/dev/null 2>"$base.err" \
        && hyprof report "$base.db" --format csv --top 0 >"$base.csv" 2>"$base.err" \
        || { cat "$base.err" >&2; echo "deduction-ab.sh: $kind $res, $v, JVM $j: import or report failed" >&2; exit 1; }
      echo "$kind $res $v $(cat "$base.out") csv=$base.csv" >>"$WORK/results.txt"
      [ -n "${KEEP:-}" ] || rm -f "$base.hyprof" "$base.db" "$base.db-shm" "$base.db-wal"
    done
  done
  echo "$kind $res: $JVMS JVMs done" >&2
done
python3 - "$WORK/results.txt" "$CALLS" <<'PY'
import csv, statistics, sys
results, calls = sys.argv[1], int(sys.argv[2])
cases, order = {}, []
for line in open(results):
    kind, res, variant, *kv = line.split()
    f = dict(x.split("=", 1) for x in kv)
    row = next((r for r in csv.DictReader(open(f["csv"])) if r["method"] == "workload.CallHeavy.root()"), None)
    if row is None:
        sys.exit(f"deduction-ab.sh: {kind} {res}: root() is not in {f['csv']}")
    if int(row["calls"]) != calls:
        sys.exit(f"deduction-ab.sh: {kind} {res}: root() has {row['calls']} calls in the session, {calls} were measured")
    plain, own = int(f["plain_mean_ns"]), int(f["profiled_mean_ns"])
    ded, raw = int(row["incl_ns"]) / calls, int(row["incl_raw_ns"]) / calls
    key = (kind, res.replace(":", ","), variant)
    if key not in cases:
        order.append(key)
    cases.setdefault(key, []).append((plain, own, ded, raw))
pct = lambda x, b: 100.0 * (x - b) / b
print(f"Overhead deduction in one JVM: plain and instrumented root() taking turns, {calls} calls each a JVM; "
      "medians over the JVMs of each JVM's error against its own plain mean")
hdr = f"{'workload':10} {'probes on':27} {'build':6} {'plain us':>9} {'own err':>9} {'ded err':>9} {'raw err':>9}   deducted error of each JVM"
print(hdr)
print("-" * len(hdr))
errs = {}
for key in order:
    runs = cases[key]
    med = statistics.median
    de = [pct(d, p) for p, o, d, r in runs]
    errs.setdefault(key[2], []).append(med(de))
    print(f"{key[0]:10} {key[1]:27} {key[2]:6} {med(p for p, *_ in runs) / 1e3:9.1f} {med(pct(o, p) for p, o, d, r in runs):+8.1f}% "
          f"{med(de):+8.1f}% {med(pct(r, p) for p, o, d, r in runs):+8.1f}%   " + " ".join(f"{e:+.1f}" for e in de))
print()
for variant, es in errs.items():
    print(f"{variant}: mean |deducted error| over the cases {statistics.mean(abs(e) for e in es):.1f} %, max {max(abs(e) for e in es):.1f} % "
          "(issue 15's target: each ≤ 10 %, mean ≤ 5 %)")
PY
