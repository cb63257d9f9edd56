#!/usr/bin/env bash
# One SciMark 2.0 kernel, uninstrumented and instrumented, in one JVM (KernelAB): each jar in a class
# loader of its own, taking turns measurement by measurement, so machine noise hits them alike.
# Variants: the lifted classes plain, the offline jar (invokedynamic sites) with every probe off,
# and the same jar without the kernel's own class instrumented (EXCLUDE, default the FFT class).
# Prints each variant's median Mflops and its ratio to plain.
# Settings (environment variables): KERNEL (FFT, SOR, MonteCarlo, SparseMatmult, LU; default FFT),
# ROUNDS (measurements per variant, default 18), MIN_SECONDS (minimum time of one, default 0.5),
# EXCLUDE (class left out of the third jar, default jnt.scimark2.FFT), OPTIONS (the runtime's, default
# "resolutions=": every probe off).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SCI="$HERE/target/scimark.jar"
[ -f "$SCI" ] && [ -f "$HERE/target/benchmarks.jar" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bench -am)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
java -cp "$HERE/target/benchmarks.jar:$SCI" org.hyprof.bench.LiftClassFiles "$SCI" "$WORK/plain.jar"
"$ROOT/hyprof" instrument "$WORK/plain.jar" -o "$WORK/offline.jar" --quiet
"$ROOT/hyprof" instrument "$WORK/plain.jar" -o "$WORK/offline-without-kernel.jar" --quiet --exclude "${EXCLUDE:-jnt.scimark2.FFT}"
java -Dhyprof.options=out=$WORK/s.hyprof,${OPTIONS:-resolutions=} -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.KernelAB \
    "${KERNEL:-FFT}" "${ROUNDS:-18}" "${MIN_SECONDS:-0.5}" "$WORK/plain.jar" "$WORK/offline.jar" "$WORK/offline-without-kernel.jar" 2>&1 \
  | grep -v '^hyprof' | sed "s|$WORK/||"
