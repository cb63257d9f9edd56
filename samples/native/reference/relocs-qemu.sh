#!/usr/bin/env bash
# Regenerates relocs-qemu.txt: the results of ../src/relocs.c's functions (thread-local storage on
# three threads, an ifunc) when the same code is linked statically against glibc and run under
# qemu-user, where glibc and the kernel do TLS and ifuncs. bb-tracer's RelocationsTest expects the
# same numbers from librelocs.so in the emulator. Needs qemu-user and the cross compilers of ../build.sh.
set -euo pipefail
cd "$(dirname "$0")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
aarch64-linux-gnu-gcc -O2 -mtls-dialect=trad -c -o "$TMP/trad.o" ../src/relocs_trad.c
aarch64-linux-gnu-gcc -O2 -static -o "$TMP/relocs-arm64" ../src/relocs_main.c ../src/relocs.c "$TMP/trad.o" -lpthread
arm-linux-gnueabihf-gcc -O2 -mthumb -static -o "$TMP/relocs-armv7" ../src/relocs_main.c ../src/relocs.c ../src/relocs_trad.c -lpthread
{
  echo "# ../src/relocs.c under qemu-user $(qemu-arm --version | head -1 | grep -o '[0-9][0-9.]*' | head -1), static glibc. Regenerate: samples/native/reference/relocs-qemu.sh"
  qemu-aarch64 "$TMP/relocs-arm64" | sed 's/^/arm64-v8a /'
  qemu-arm "$TMP/relocs-armv7" | sed 's/^/armeabi-v7a /'
} > relocs-qemu.txt
cat relocs-qemu.txt
