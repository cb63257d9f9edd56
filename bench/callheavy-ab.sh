#!/usr/bin/env bash
# OverheadIT's CallHeavy kernels (CallHeavyKernelAB), plain and offline-instrumented, in one JVM:
# each jar in a class loader of its own, taking turns call by call, so machine noise hits them alike.
# Prints per kernel each jar's median time of a call and its ratio to plain: which kernel the probes
# slow down (deduction-ab.sh gives the error of a whole root). Nothing is asserted.
# Settings (environment variables): CALLS (measured calls per kernel and jar, default 1000; as many
# warm-up calls first), KERNELS (comma-separated, default all: matrixMultiply, loop, sieve,
# bubbleSort, random, stringCat, mergeSort, matrix), RESOLUTIONS (the runtime's, default
# process:thread:method:loop), BEFORE=DIR (another checkout with its CLI built: its instrumented jar
# too, in the same turns), JVMS (default 1: that many JVMs in a row).
# Needs the CLI and the bench module built (mvn -o -q package -pl cli,bench -am -DskipTests).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
. "$(dirname "$0")/lib/before.sh" # BEFORE=DIR: before_hyprof
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CALLS=${CALLS:-1000}; JVMS=${JVMS:-1}
for v in CALLS JVMS; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "callheavy-ab.sh: $v must be a positive number, not '${!v}'" >&2; exit 2; }
done
SAMPLES="$ROOT/cli/target/lib/hyprof-samples-java.jar"
[ -f "$ROOT/cli/target/hyprof.jar" ] && [ -f "$SAMPLES" ] && [ -f "$HERE/target/benchmarks.jar" ] \
  || { echo "callheavy-ab.sh: build the CLI and the benchmarks first (mvn -o -q package -pl cli,bench -am -DskipTests)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
HYPROF_NO_BUILD=1 "$ROOT/hyprof" instrument "$SAMPLES" --include workload.CallHeavy -o "$WORK/now.jar" --quiet
cp "$SAMPLES" "$WORK/plain.jar" # named so in the table
JARS=("$WORK/plain.jar" "$WORK/now.jar")
if [ -n "${BEFORE:-}" ]; then
  before_hyprof instrument "$SAMPLES" --include workload.CallHeavy -o "$WORK/before.jar" --quiet
  JARS+=("$WORK/before.jar")
fi
for j in $(seq "$JVMS"); do
  echo "JVM $j of $JVMS (resolutions ${RESOLUTIONS:-process:thread:method:loop})"
  java -Dhyprof.options=out="$WORK/s.hyprof",resolutions="${RESOLUTIONS:-process:thread:method:loop}" \
      -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.CallHeavyKernelAB "$CALLS" "${KERNELS:-all}" "${JARS[@]}" 2>&1 \
    | grep -v '^hyprof'
done
