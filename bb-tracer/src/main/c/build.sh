#!/usr/bin/env bash
# Builds libhyprof-unicorn.so, the engine that counts basic blocks in C (LibUnicornBackend), into
# OUT/org/hyprof/bb/emu/native/linux-x86_64/ with a .sha256 beside it. Run by Maven
# (process-classes); OUT defaults to bb-tracer/target/classes.
#
# Needs Unicorn 2 headers and libunicorn.a (linked in statically so the .so has no run-time
# dependency and cannot clash with unidbg's libunicorn.so, which has the same SONAME) and a JDK's
# jni.h. Which Unicorn, first found wins:
#   1. .cache/unicorn/2.1.1-2+b2/ of this repository: Debian 13's libunicorn-dev 2.1.1, fetched and
#      checked by fetch-unicorn.sh (.ci/run and ./hyprof run it; 2-4x faster on FP code, issue 17);
#   2. the system's libunicorn-dev (Debian 12: 2.0.1), as installed by apt-get.
# Without either the build goes on: bb-tracer then uses its other engine (unidbg's Unicorn with a
# Java block hook, about 90 ns per block instead of a few).
set -euo pipefail
cd "$(dirname "$0")"
OUT=${1:-../../../target/classes}
JDK=${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}}
DEST="$OUT/org/hyprof/bb/emu/native/linux-x86_64"
PINNED=2.1.1-2+b2
CACHED=../../../../.cache/unicorn/$PINNED
if [ -f "$CACHED/usr/lib/x86_64-linux-gnu/libunicorn.a" ] && [ -f "$CACHED/usr/include/unicorn/unicorn.h" ]; then
  INC="$CACHED/usr/include" LIB="$CACHED/usr/lib/x86_64-linux-gnu/libunicorn.a" FROM="libunicorn-dev $PINNED, fetched"
else
  INC=/usr/include LIB=/usr/lib/x86_64-linux-gnu/libunicorn.a
  FROM="$(dpkg-query -W -f='libunicorn-dev ${Version}' libunicorn-dev 2>/dev/null || echo libunicorn.a), system"
fi
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "[hyprof] engine shim: only built on Linux x86-64; bb-tracer will count blocks with a Java hook"
  exit 0
fi
if [ ! -f "$INC/unicorn/unicorn.h" ] || [ ! -f "$LIB" ]; then
  echo "[hyprof] engine shim: no Unicorn library (bb-tracer/src/main/c/fetch-unicorn.sh, or apt-get install libunicorn-dev);" \
       "bb-tracer will count blocks with a Java hook (about 90 ns per block instead of a few)"
  exit 0
fi
if [ ! -f "$JDK/include/jni.h" ]; then
  echo "[hyprof] engine shim: no jni.h under $JDK/include; bb-tracer will count blocks with a Java hook"
  exit 0
fi
mkdir -p "$DEST"
SO="$DEST/libhyprof-unicorn.so"
# rebuilt when the sources change or another Unicorn is picked (STAMP: which one the .so has)
STAMP="$(dirname "$OUT")/engine-shim.from"
if [ "$SO" -nt hyprof_unicorn.c ] && [ "$SO" -nt build.sh ] && [ "$SO" -nt "$LIB" ] \
    && [ "$(cat "$STAMP" 2>/dev/null)" = "$FROM" ]; then
  exit 0
fi
gcc -O2 -fPIC -shared -s -std=c11 -Wall -Wextra -Werror \
  -DHYPROF_UNICORN_FROM="\"$FROM\"" -I"$INC" -I"$JDK/include" -I"$JDK/include/linux" \
  -o "$SO.tmp" hyprof_unicorn.c \
  -Wl,--exclude-libs,ALL -Wl,--gc-sections -Wl,-z,defs \
  "$LIB" -lm -lpthread
mv "$SO.tmp" "$SO"
sha256sum "$SO" | cut -d' ' -f1 > "$SO.sha256"
echo "$FROM" > "$STAMP"
echo "[hyprof] engine shim: built $SO ($FROM)"
