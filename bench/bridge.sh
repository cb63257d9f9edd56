#!/usr/bin/env bash
# The cost of one crossing between Java and emulated native code in a hybrid run, side by side in
# one run: a native method doing almost nothing vs the same Java method, and a call back from
# native code into Java vs the same call from Java. Run twice: with every probe on, and with the
# method probes off (the bridge still runs; only the process-level probe records), so the
# bridge's own cost and the probes' show apart. Figures: ns per call (samples/java demo.Crossings).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CALLS=${CALLS:-20000}
ABI=${ABI:-armeabi-v7a}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$ROOT/hyprof" --version >/dev/null
SAMPLES="$ROOT/tui/target/lib/hyprof-samples-java.jar"
for res in process,thread,method,loop process; do
  echo "== probes on: $res ($ABI, $CALLS calls)"
  "$ROOT/hyprof" profile --force -o "$WORK/b.db" --native-libs "$ROOT/samples/native/lib" --abi "$ABI" --resolution "$res" \
    -- java -cp "$SAMPLES" demo.Crossings "$CALLS" 2>/dev/null
done
