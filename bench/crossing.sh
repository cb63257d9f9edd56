#!/usr/bin/env bash
# A crossing's cost with Android's libc loaded or not (issue 16 item 5), side by side in one run:
# for each ABI and userland (stubs, bionic), and for this build and optionally another one
# (BEFORE=/path/to/a/built/checkout, e.g. main before a change), alternating every variant in each
# of ROUNDS rounds so that the shared machine's load falls on all alike; medians per variant.
#
# Two figures per variant:
#  - bb-tracer alone (org.hyprof.bench.Crossing, one JVM per variant and round): one native call's
#    fixed cost — emulator entry, the epoch and its accounting — on a function of two blocks
#    (count_loop(0)), with block counting and with no hook; and CPU ns per counted block (int_kernel);
#    the fast engine (libunicorn), thread CPU time;
#  - the whole crossing Java -> native -> Java in a hybrid run: demo.Crossings under hyprof profile
#    (every probe on), a native method doing almost nothing, ns per call on the program's own clock,
#    the fastest of four rounds of CALLS calls (as bench/bridge.sh); DEMO=0 leaves it out.
# Needs: this checkout built (mvn -o -B -q -DskipTests package -pl cli,bench -am), and BEFORE's
# (mvn -o -B -q -DskipTests package -pl cli -am there). Prints the load (uptime) before and after.
# Settings (environment variables): ROUNDS (default 5), ABIS (default "arm64-v8a armeabi-v7a"), USERLANDS (default "stubs bionic").
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ROUNDS=${ROUNDS:-5}
CALLS=${CALLS:-200000}
ABIS=${ABIS:-arm64-v8a armeabi-v7a}
USERLANDS=${USERLANDS:-stubs bionic}
BUILDS="$ROOT"
[ -n "${BEFORE:-}" ] && BUILDS="$(cd "$BEFORE" && pwd) $ROOT"
for b in $BUILDS; do
  [ -f "$b/cli/target/lib/hyprof-bb.jar" ] || { echo "$b: not built (cli/target/lib/hyprof-bb.jar missing)" >&2; exit 1; }
done
[ -f "$HERE/target/classes/org/hyprof/bench/Crossing.class" ] || { echo "bench not built (mvn -o -B -q -DskipTests package -pl cli,bench -am)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
SAMPLES="$ROOT/cli/target/lib/hyprof-samples-java.jar"
OUT="$WORK/figures.txt"
echo "load before: $(uptime)"
for r in $(seq "$ROUNDS"); do
  for abi in $ABIS; do
    for u in $USERLANDS; do
      for b in $BUILDS; do
        name=$([ "$b" = "$ROOT" ] && echo this || echo before)
        line=$(java -cp "$b/cli/target/lib/hyprof-bb.jar:$HERE/target/classes" org.hyprof.bench.Crossing "$ROOT/samples/native" "$abi" "$u")
        echo "$name $abi $u $line" >>"$OUT"
        [ "${DEMO:-1}" = 1 ] || continue
        demo=$(HYPROF_NO_BUILD=1 HYPROF_ENGINE=libunicorn "$b/hyprof" profile --force -o "$WORK/b.db" --native-libs "$ROOT/samples/native/lib" \
          --abi "$abi" --userland "$u" --resolution process,thread,method,loop -- java -cp "$SAMPLES" demo.Crossings "$CALLS" 2>/dev/null)
        nat=$(echo "$demo" | awk '/^native call/ {print $(NF-1)}')
        cb=$(echo "$demo" | awk '/^callback from native/ {print $(NF-1)}')
        echo "$name $abi $u crossing_ns=$nat callback_ns=$cb" >>"$OUT"
      done
    done
  done
  echo "round $r/$ROUNDS done" >&2
done
echo "load after: $(uptime)"
python3 - "$OUT" <<'PY'
import collections, statistics, sys
vals = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    f = line.split()
    key = tuple(f[:3])
    if key not in order: order.append(key)
    for kv in f[3:]:
        k, v = kv.split("=")
        vals[key + (k,)].append(float(v))
def med(key, k):
    v = vals.get(key + (k,))
    return statistics.median(v) if v else float("nan")
cols = [("call_ns", "call, counting (ns)", "%.0f"), ("call_nohook_ns", "call, no hook", "%.0f"),
        ("block_ns", "ns/block counting", "%.2f"), ("block_nohook_ns", "ns/block no hook", "%.2f"),
        ("blocks_known", "blocks known", "%.0f"), ("crossing_ns", "Java→native→Java (ns)", "%.0f"),
        ("callback_ns", "callback (ns)", "%.0f")]
print("| build | ABI | userland | " + " | ".join(c[1] for c in cols) + " |")
print("|---" * (3 + len(cols)) + "|")
for key in sorted(order, key=lambda k: (k[1], k[2], k[0] != "before")):
    print("| " + " | ".join(key) + " | " + " | ".join(c[2] % med(key, c[0]) for c in cols) + " |")
print()
print("crossing, bionic / stubs of the same build (target: within 2x of stubs before the change):")
for key in order:
    if key[2] != "bionic": continue
    stubs = (key[0], key[1], "stubs")
    base = ("before", key[1], "stubs") if ("before", key[1], "stubs") in order else stubs
    print(f"  {key[0]:6} {key[1]:12} call {med(key, 'call_ns') / med(stubs, 'call_ns'):.2f}x, crossing {med(key, 'crossing_ns') / med(stubs, 'crossing_ns'):.2f}x"
          f" (vs stubs before: call {med(key, 'call_ns') / med(base, 'call_ns'):.2f}x, crossing {med(key, 'crossing_ns') / med(base, 'crossing_ns'):.2f}x)")
print()
print("runs per figure:", len(vals[order[0] + ("call_ns",)]))
PY
