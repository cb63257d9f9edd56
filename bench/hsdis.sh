#!/usr/bin/env bash
# Builds a minimal HotSpot disassembler plugin (bench/tools/hsdis-capstone.c, x86-64, on the
# capstone library) so that -XX:+PrintAssembly prints the JIT's machine code here: the JDK ships no
# hsdis, and without one PrintAssembly prints bytes only. For investigating what C2 made of a
# probed method (register pressure, unrolling, what a probe keeps alive), beside the plain one.
# Installs libcapstone-dev if it is missing (apt-get; root). Prints the directory to put on
# LD_LIBRARY_PATH. Example:
#   LD_LIBRARY_PATH=$(bench/hsdis.sh) java -XX:+UnlockDiagnosticVMOptions \
#     -XX:CompileCommand=print,workload.CallHeavy::matrixMultiply -cp ... Main
# Settings (environment variables): OUT (directory for hsdis-amd64.so, default bench/target/hsdis).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-"$HERE/target/hsdis"}
[ "$(uname -m)" = x86_64 ] || { echo "hsdis.sh: x86-64 only (this is $(uname -m))" >&2; exit 1; }
if [ ! -f /usr/include/capstone/capstone.h ]; then
  apt-get install -y -q libcapstone-dev >/dev/null || { echo "hsdis.sh: could not install libcapstone-dev" >&2; exit 1; }
fi
mkdir -p "$OUT"
gcc -O2 -shared -fPIC -o "$OUT/hsdis-amd64.so" "$HERE/tools/hsdis-capstone.c" -lcapstone
echo "$OUT"
