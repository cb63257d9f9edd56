#!/usr/bin/env bash
# The cost of one crossing between Java and emulated native code in a hybrid run, side by side in
# one run: a native method doing almost nothing vs the same Java method, and a call back from
# native code into Java vs the same call from Java. Run twice: with every probe on, and with the
# method probes off (the bridge still runs; only the process-level probe records), so the
# bridge's own cost and the probes' show apart; and on each engine (HYPROF_ENGINE). Figures: ns per
# call (samples/java demo.Crossings): the fastest of four rounds of CALLS calls after a warm-up round
# (200,000 by default: with fewer, the JIT has not compiled the bridge yet and the figure is mostly
# warm-up).
# Settings (environment variables): ABI (default armeabi-v7a), ENGINES (default "libunicorn unidbg").
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CALLS=${CALLS:-200000}
ABI=${ABI:-armeabi-v7a}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$ROOT/hyprof" --version >/dev/null
SAMPLES="$ROOT/cli/target/lib/hyprof-samples-java.jar"
for engine in ${ENGINES:-libunicorn unidbg}; do
  for res in process,thread,method,loop process; do
    echo "== engine $engine, probes on: $res ($ABI, $CALLS calls)"
    HYPROF_ENGINE=$engine "$ROOT/hyprof" profile --force -o "$WORK/b.db" --native-libs "$ROOT/samples/native/lib" --abi "$ABI" \
      --resolution "$res" -- java -cp "$SAMPLES" demo.Crossings "$CALLS" 2>/dev/null
  done
done
