#!/usr/bin/env bash
# Uncommon traps in the probe path at a program's first timed calls (issue 15): each kernel of
# bench/src/main/java/perturb/Kernels.java called once in a process of its own under
# 'hyprof profile' (default settings, or RESOLUTIONS), with -XX:+LogCompilation. Counted: the
# uncommon traps (C2's "this branch was never taken" guesses, each deoptimizing the compiled code
# it sits in, which C2 then compiles again while the program runs) taken after the program's class
# was loaded (-Xlog:class+load: the agent's calibration runs before) in code of org.hyprof.runtime,
# or in JDK code inlined into it. Printed per kernel: the count and each trap (method@bci, reason);
# deterministic but for the JIT's timing, so a count can move by one or two between runs. Nothing
# is asserted. Settings (environment variables): KERNELS (default: matmul sieve sort strings
# counted treewalk), RESOLUTIONS (hyprof's --resolution, default: its default), BEFORE=DIR (another
# checkout with its CLI built: its counts too, run by run). Needs the CLI built
# (mvn -o -q package -pl cli -am -DskipTests).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
. "$(dirname "$0")/lib/before.sh" # BEFORE=DIR: before_hyprof
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
KERNELS=${KERNELS:-"matmul sieve sort strings counted treewalk"}
[ -f "$ROOT/cli/target/hyprof.jar" ] \
  || { echo "traps.sh: build the CLI first (mvn -o -q package -pl cli -am -DskipTests)" >&2; exit 1; }
hyprof() { HYPROF_NO_BUILD=1 "$ROOT/hyprof" "$@"; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
javac --release 17 -d "$WORK/classes" "$HERE/src/main/java/perturb/Kernels.java"
RES=(); [ -n "${RESOLUTIONS:-}" ] && RES=(--resolution "$RESOLUTIONS")
VARIANTS="now"; [ -n "${BEFORE:-}" ] && VARIANTS="before now"
count() { # log classlog -> "n trap; trap; ..."
  python3 - "$1" "$2" <<'EOF'
import re, sys
log = open(sys.argv[1], errors="replace").read()
start = None
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"\[([\d.]+)s\].* perturb\.Kernels source:", line)
    if m: start = float(m.group(1)); break
if start is None: sys.exit("traps.sh: perturb.Kernels was never loaded (see " + sys.argv[2] + ")")
traps = []
for m in re.finditer(r"<uncommon_trap thread='\d+' reason='([^']+)' action='[^']+'([^>]*)>((?:\s*<jvms [^>]*>)+)", log):
    st = re.search(r"stamp='([\d.]+)'", m.group(2))
    if not st or float(st.group(1)) < start: continue
    frames = re.findall(r"<jvms bci='(\d+)' method='([^' ]+) ([^' ]+)", m.group(3))
    if not any(c.startswith("org.hyprof.runtime.") for _, c, _ in frames): continue
    b, c, n = frames[0]
    traps.append("%s.%s@%s %s" % (c.split(".")[-1], n, b, m.group(1)))
print(len(traps), "; ".join(traps))
EOF
}
printf '%-9s %-7s %s\n' kernel build "runtime traps after the program's class was loaded"
for k in $KERNELS; do
  for v in $VARIANTS; do
    cli=hyprof; [ "$v" = before ] && cli=before_hyprof
    "$cli" profile "${RES[@]}" -o "$WORK/$k-$v.db" --force -- java -XX:+UnlockDiagnosticVMOptions \
        -XX:+LogCompilation -XX:LogFile="$WORK/$k-$v.log" -Xlog:class+load:file="$WORK/$k-$v.classes":uptime \
        -cp "$WORK/classes" perturb.Kernels "$k" >"$WORK/$k-$v.out" 2>&1 \
      || { cat "$WORK/$k-$v.out" >&2; echo "traps.sh: $k ($v) failed" >&2; exit 1; }
    printf '%-9s %-7s %s\n' "$k" "$v" "$(count "$WORK/$k-$v.log" "$WORK/$k-$v.classes")"
  done
done
