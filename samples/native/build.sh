#!/usr/bin/env bash
# Builds the native samples with Debian's cross compilers; the outputs are checked in (CI does not
# cross-compile). Packages: gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu.
#   armeabi-v7a: ARM and Thumb shared objects, softfp calling convention (Android's armeabi-v7a)
#   arm64-v8a:   AArch64 shared object
#   static/:     static executables of the same kernels for qemu-user reference runs
set -euo pipefail
cd "$(dirname "$0")"
CFLAGS="-O2 -fPIC -fno-stack-protector -fno-builtin -ffp-contract=off"
ARM32="arm-linux-gnueabihf-gcc -march=armv7-a -mfpu=vfpv3-d16 -mfloat-abi=softfp"
mkdir -p lib/armeabi-v7a lib/arm64-v8a static
$ARM32 -marm   $CFLAGS -shared -nostdlib -o lib/armeabi-v7a/libkernels.so src/kernels.c -lgcc
$ARM32 -mthumb $CFLAGS -shared -nostdlib -o lib/armeabi-v7a/libkernels-thumb.so src/kernels.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS -shared -nostdlib -o lib/arm64-v8a/libkernels.so src/kernels.c -lgcc
# static executables (hard-float is fine here: nothing else links against them)
arm-linux-gnueabihf-gcc -O2 -static -ffp-contract=off -o static/kernels-armv7 src/main.c src/kernels.c -lm
aarch64-linux-gnu-gcc -O2 -static -ffp-contract=off -o static/kernels-arm64 src/main.c src/kernels.c -lm
arm-linux-gnueabihf-gcc -O2 -static -ffp-contract=off -o static/bench-armv7 src/bench.c src/kernels.c -lm
aarch64-linux-gnu-gcc -O2 -static -ffp-contract=off -o static/bench-arm64 src/bench.c src/kernels.c -lm
{
  echo "Built $(date -u +%Y-%m-%d) by samples/native/build.sh with:"
  arm-linux-gnueabihf-gcc --version | head -1
  aarch64-linux-gnu-gcc --version | head -1
} > BUILT-WITH.txt
