#!/usr/bin/env bash
# Regenerates straddle-qemu.txt: executed blocks and instructions of straddle_loop(1000) as QEMU's
# own translator splits them, counted under qemu-user by the TCG plugin tbcount.c (built here with
# the host's gcc) on the static executables of the same code (../straddle/static, see
# ../src/straddle.c). bb-tracer's BlockBoundaryTest compares both engines with these numbers.
# Needs qemu-user (with plugin support, as Debian's), gcc, binutils' nm for ARM/AArch64 or the
# host's (it reads ELF symbols of any machine).
set -euo pipefail
cd "$(dirname "$0")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
gcc -O2 -shared -fPIC -Wall -Wextra -o "$TMP/tbcount.so" tbcount.c
count() { # QEMU EXE LIBRARY
  local lo size
  read -r lo size < <(nm -S "../straddle/static/$2" | awk '$4 == "straddle_loop" { print $1, $2 }')
  local from=$(printf '0x%x' $((0x$lo & ~1))) to=$(printf '0x%x' $((0x$lo + 0x$size))) # Thumb symbols have bit 0 set
  local out
  out=$($1 -plugin "$TMP/tbcount.so,lo=$from,hi=$to" -d plugin "../straddle/static/$2" 2>&1 || true)
  echo "$3 straddle_loop 1000 $(echo "$out" | grep -o 'blocks [0-9]* instructions [0-9]*')"
}
{
  echo "# straddle_loop(1000): blocks and instructions executed, as qemu-user $(qemu-arm --version | head -1 | grep -o '[0-9][0-9.]*' | head -1) splits and counts them"
  echo "# (TCG plugin tbcount.c, on ../straddle/static/*). Regenerate: samples/native/reference/straddle-qemu.sh"
  count qemu-arm straddle-arm armeabi-v7a/libstraddle.so
  count qemu-arm straddle-thumb armeabi-v7a/libstraddle-thumb.so
  count qemu-aarch64 straddle-arm64 arm64-v8a/libstraddle.so
} > straddle-qemu.txt
cat straddle-qemu.txt
