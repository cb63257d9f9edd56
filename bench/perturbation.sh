#!/usr/bin/env bash
# Perturbation benchmark (issue 15), side by side in one run: single-call kernels with tight loops
# (bench/src/main/java/perturb/Kernels.java, each kernel one static call per process, timed by the
# program's own clock) run plain, profiled with default settings, profiled with
# --resolution process,thread,method, and with every probe on from the start (loops too:
# --resolution process,thread,method,loop); the variants alternate run by run (the first of a round
# rotates) for ROUNDS rounds. Printed: per kernel and variant the median of the program's own time,
# its ratio to plain, the median of hyprof's deducted inclusive time of the kernel's method and its
# error against the plain median; then the kernels' total and the mean/max error (the recursion
# kernel apart). Targets are printed beside the figures; nothing is asserted on times. BEFORE=DIR
# (another checkout with its CLI built) adds that build's three profiled variants to the same rounds.
set -euo pipefail
usage() {
  cat <<'EOF'
usage: bench/perturbation.sh [-h|--help]
Runs perturb.Kernels plain, under 'hyprof profile' with default settings, with
--resolution process,thread,method and with --resolution process,thread,method,loop,
alternating, and prints one table of medians.
Environment:
  ROUNDS=N       rounds, each one run of every variant (default 5)
  KERNELS="..."  kernels to run (default: all: matmul sieve sort strings counted treewalk)
  JAVA_OPTS=...  JVM options for the program, in every variant (default: none)
  KEEP=DIR       keep every run's output, stderr, session and report CSV in DIR
  PER_PROCESS=1  each kernel in a process of its own (each then the first method its
                 program times: what the first call of a program pays); default: all the
                 kernels one after the other in one process per run
  BEFORE=DIR     another checkout with its CLI built: its profiled variants run in the same rounds
Needs the CLI built: mvn -o -q package -pl cli -am -DskipTests
EOF
}
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") ;;
  *) echo "perturbation.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac
ROUNDS=${ROUNDS:-5}
KERNELS=${KERNELS:-}
JAVA_OPTS=${JAVA_OPTS:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SRC="$HERE/src/main/java/perturb/Kernels.java"
fail() { echo "perturbation.sh: $*" >&2; exit 1; }
case "${PER_PROCESS:-0}" in 0|1) ;; *) echo "perturbation.sh: PER_PROCESS must be 0 or 1, not '$PER_PROCESS'" >&2; exit 2 ;; esac
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "perturbation.sh: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 2; }
[ -f "$ROOT/cli/target/hyprof.jar" ] || fail "no $ROOT/cli/target/hyprof.jar: build the CLI first (mvn -o -q package -pl cli -am -DskipTests)"
for tool in java javac python3; do command -v "$tool" >/dev/null || fail "$tool not found on PATH"; done
# The launcher would rebuild the CLI in the middle of the runs if a source is newer than the jar.
hyprof() { HYPROF_NO_BUILD=1 "$ROOT/hyprof" "$@"; }

if [ -n "${KEEP:-}" ]; then WORK=$(mkdir -p "$KEEP" && cd "$KEEP" && pwd); else
  WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
fi
# Compiled here, not taken from the bench module's jar: only the kernels' class is on the class
# path (the agent instruments every class it is given), and it always matches the source.
rm -rf "$WORK/classes"
javac --release 17 -d "$WORK/classes" "$SRC" || fail "javac $SRC failed"
# shellcheck disable=SC2206
PROGRAM=(java $JAVA_OPTS -cp "$WORK/classes" perturb.Kernels $KERNELS)
"${PROGRAM[@]}" --help >/dev/null || fail "perturb.Kernels refused its arguments (KERNELS='$KERNELS', JAVA_OPTS='$JAVA_OPTS')"

VARIANTS=(plain default method loops)
. "$HERE/lib/before.sh" # BEFORE=DIR: before_hyprof
if [ -n "${BEFORE:-}" ]; then VARIANTS+=(default_before method_before loops_before); fi
# PER_PROCESS=1: one process per kernel, each appended to the run's session (profile --append)
if [ "${PER_PROCESS:-0}" = 1 ]; then
  # shellcheck disable=SC2206
  if [ -n "$KERNELS" ]; then PROCESSES=($KERNELS); else PROCESSES=(matmul sieve sort strings counted treewalk); fi
else
  PROCESSES=("$KERNELS")
fi
run_one() { # variant base session-flag kernels...
  local v=$1 base=$2 once=$3 cli=hyprof; shift 3
  case $v in *_before) cli=before_hyprof ;; esac
  # shellcheck disable=SC2206
  local program=(java $JAVA_OPTS -cp "$WORK/classes" perturb.Kernels "$@")
  case $v in
    plain) "${program[@]}" ;;
    default*) $cli profile "$once" -o "$base.db" -- "${program[@]}" ;;
    loops*) $cli profile "$once" --resolution process,thread,method,loop -o "$base.db" -- "${program[@]}" ;;
    method*) $cli profile "$once" --resolution process,thread,method -o "$base.db" -- "${program[@]}" ;;
  esac
}
run() { # variant round
  local v=$1 r=$2 base="$WORK/$2-$1" once=--force p
  : >"$base.out"; : >"$base.err"
  for p in "${PROCESSES[@]}"; do
    # shellcheck disable=SC2086
    run_one "$v" "$base" "$once" $p >>"$base.out" 2>>"$base.err" \
      || { cat "$base.err" >&2; fail "round $r, $v: the run failed"; }
    once=--append
  done
  if [ "$v" != plain ]; then
    hyprof report "$base.db" --format csv --top 0 --descriptors >"$base.csv" 2>"$base.err" \
      || { cat "$base.err" >&2; fail "round $r, $v: hyprof report failed"; }
    [ -n "${KEEP:-}" ] || rm -f "$base.db" "$base.db-shm" "$base.db-wal"
  fi
}
for r in $(seq "$ROUNDS"); do
  for i in "${!VARIANTS[@]}"; do run "${VARIANTS[$(( (r - 1 + i) % ${#VARIANTS[@]} ))]}" "$r"; done
  echo "round $r/$ROUNDS done" >&2
done

python3 - "$WORK" "$ROUNDS" "${PER_PROCESS:-0}" "${VARIANTS[@]}" <<'PY'
import csv, statistics, sys
work, rounds, per_process, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4:]
labels = {"plain": "plain", "default": "hyprof, default settings", "method": "hyprof, process,thread,method",
          "loops": "hyprof, loops from the start"}
for v in list(labels):
    if v != "plain":
        labels[v + "_before"] = labels[v].replace("hyprof,", "before,")

def die(msg):
    sys.exit("perturbation.sh: " + msg)

own, ded, raw, recursive, checks, order = {}, {}, {}, {}, {}, []
for r in range(1, rounds + 1):
    for v in variants:
        base = f"{work}/{r}-{v}"
        lines = [l.split() for l in open(base + ".out") if l.startswith("perturb ")]
        if not lines:
            die(f"round {r}, {v}: no 'perturb' line in the program's output ({base}.out)")
        rows = {}
        if v != "plain":
            rows = {row["method"]: row for row in csv.DictReader(open(base + ".csv"))}
        for l in lines:
            f = dict(kv.split("=", 1) for kv in l[1:])
            k = f["kernel"]
            if k not in order:
                order.append(k)
            if int(f["calls"]) > 1:
                recursive[k] = int(f["calls"])
            checks.setdefault(k, set()).add(f["check"])
            own.setdefault((k, v), []).append(int(f["ns"]))
            if v == "plain":
                continue
            row = rows.get(f["method"])
            if row is None:
                die(f"round {r}, {v}: {f['method']} is not in the session's report ({base}.csv)")
            want = int(f["calls"])
            if int(row["calls"]) != want:
                die(f"round {r}, {v}: {f['method']} has {row['calls']} calls in the report, expected {want}")
            # the kernel's one (outermost) call: a recursive method's inclusive time counts it once
            ded.setdefault((k, v), []).append(int(row["incl_ns"]))
            raw.setdefault((k, v), []).append(int(row["incl_raw_ns"]))
for k, c in checks.items():
    if len(c) != 1:
        die(f"kernel {k}: results differ between runs ({' '.join(sorted(c))})")

med = statistics.median
def pct(x, base):
    return 100.0 * (x - base) / base

print(f"Perturbation benchmark: perturb.Kernels, each kernel called once, "
      f"{'each in a process of its own' if per_process else 'all in one process'}, {rounds} round{'s' if rounds != 1 else ''}, "
      f"variants alternating; medians in ms")
hdr = (f"{'kernel':10} {'variant':30} {'own ms':>9} {'own/plain':>9} {'hyprof ms':>10} {'error':>8} {'raw error':>10} "
       f"{'vs own':>8}   own ms of each run")
print(hdr)
print("-" * len(hdr))
errs = {v: [] for v in variants[1:]}
flat = [k for k in order if k not in recursive]
rec = [k for k in order if k in recursive]

def rows_of(k):
    base = med(own[(k, "plain")])
    for v in variants:
        o = own[(k, v)]
        runs = " ".join(f"{x / 1e6:.1f}" for x in o)
        if v == "plain":
            print(f"{k:10} {labels[v]:30} {med(o) / 1e6:9.2f} {1:9.3f} {'':>10} {'':>8} {'':>10} {'':>8}   {runs}")
            continue
        d, rw = med(ded[(k, v)]), med(raw[(k, v)])
        e = pct(d, base)
        if k not in recursive:
            errs[v].append(e)
        print(f"{k:10} {labels[v]:30} {med(o) / 1e6:9.2f} {med(o) / base:9.3f} {d / 1e6:10.2f} {e:+7.1f}% "
              f"{pct(rw, base):+9.1f}% {med(pct(x, y) for x, y in zip(ded[(k, v)], o)):+7.1f}%   {runs}")

for k in flat:
    rows_of(k)
if rec:
    print(f"-- recursion, apart from the totals below ({', '.join(f'{k}: {recursive[k]:,} calls' for k in rec)})")
    for k in rec:
        rows_of(k)
print()
if flat:
    total = {v: med([sum(own[(k, v)][i] for k in flat) for i in range(rounds)]) for v in variants}
    print(f"Kernels without recursion ({', '.join(flat)}), own time = median over rounds of their sum:")
    for v in variants[1:]:
        es = errs[v]
        mean_abs, max_abs = statistics.mean(abs(e) for e in es), max(abs(e) for e in es)
        print(f"  {labels[v]:30} own {total[v] / 1e6:.1f} ms vs plain {total['plain'] / 1e6:.1f} ms: "
              f"{pct(total[v], total['plain']):+.1f}% (target: within 3 %); hyprof's error: "
              f"mean |e| {mean_abs:.1f}% (target ≤ 3 %), max |e| {max_abs:.1f}% (target ≤ 8 %)")
PY
