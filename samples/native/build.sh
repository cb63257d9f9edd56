#!/usr/bin/env bash
# Builds the native samples with Debian's cross compilers; the outputs are checked in (CI does not
# cross-compile). Packages: gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu lld.
#   armeabi-v7a: ARM and Thumb shared objects, softfp calling convention (Android's armeabi-v7a)
#   arm64-v8a:   AArch64 shared object
#   static/:     static executables of the same kernels for qemu-user reference runs
#   liblimits.so: misbehaving code (an endless loop, huge memset) for bb-tracer's limit tests
#   libuserland.so: files and threads through bionic (stdio, stat, mmap, pthreads) for the sandbox tests
#   librelocs.so: thread-local storage (every TLS relocation) and ifuncs (IRELATIVE) for the loader's tests
#   libpacked.so: relocations packed as Android's APS2 and DT_RELR (lld), for the loader's decoders
#   libdl-test.so: dl_iterate_phdr, dladdr, dl_unwind_find_exidx (what C++ unwinders ask the linker)
#   libandroid-test.so: libandroid.so's asset and window functions, for its stand-in
#   libhyprofdemo.so: the JNI half of the hybrid demo (samples/java, package demo), Thumb on
#                armeabi-v7a (Android's default), against the JDK's real jni.h
set -euo pipefail
cd "$(dirname "$0")"
CFLAGS="-O2 -fPIC -fno-stack-protector -fno-builtin -ffp-contract=off"
ARM32="arm-linux-gnueabihf-gcc -march=armv7-a -mfpu=vfpv3-d16 -mfloat-abi=softfp"
mkdir -p lib/armeabi-v7a lib/arm64-v8a static
$ARM32 -marm   $CFLAGS -shared -nostdlib -o lib/armeabi-v7a/libkernels.so src/kernels.c -lgcc
$ARM32 -mthumb $CFLAGS -shared -nostdlib -o lib/armeabi-v7a/libkernels-thumb.so src/kernels.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS -shared -nostdlib -o lib/arm64-v8a/libkernels.so src/kernels.c -lgcc
# misbehaving code for the emulator's limit tests (bb-tracer LimitsTest)
$ARM32 -marm   $CFLAGS -shared -nostdlib -o lib/armeabi-v7a/liblimits.so src/limits.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS -shared -nostdlib -o lib/arm64-v8a/liblimits.so src/limits.c -lgcc
# files and threads through Android's own libc (bb-tracer SandboxTest, ThreadsTest; --userland bionic):
# no libc headers (bionic's ABI is declared in the source), Thumb on armeabi-v7a (Android's default)
$ARM32 -mthumb $CFLAGS -shared -nostdlib -o lib/armeabi-v7a/libuserland.so src/userland.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS -shared -nostdlib -o lib/arm64-v8a/libuserland.so src/userland.c -lgcc
# thread-local storage and ifuncs (bb-tracer RelocationsTest): every TLS relocation model and IRELATIVE;
# relocs_trad.c with AArch64's traditional TLS dialect (DTPMOD64/DTPREL64); 4 KiB pages keep it small
RELOCS="-Wl,-z,max-page-size=4096 -Wl,--build-id=none"
$ARM32 -mthumb $CFLAGS -shared -nostdlib $RELOCS -o lib/armeabi-v7a/librelocs.so src/relocs.c src/relocs_trad.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS -mtls-dialect=trad -c -o relocs_trad.o src/relocs_trad.c
aarch64-linux-gnu-gcc $CFLAGS -shared -nostdlib $RELOCS -o lib/arm64-v8a/librelocs.so src/relocs.c relocs_trad.o -lgcc
rm relocs_trad.o
# packed relocations (bb-tracer RelocationsTest): linked by lld (package lld) with --pack-dyn-relocs=android+relr
LLD="ld.lld -shared --pack-dyn-relocs=android+relr -z max-page-size=4096 --build-id=none"
$ARM32 -mthumb $CFLAGS -c -o packed.o src/packed.c && $LLD -o lib/armeabi-v7a/libpacked.so packed.o "$($ARM32 -print-libgcc-file-name)"
aarch64-linux-gnu-gcc $CFLAGS -c -o packed.o src/packed.c && $LLD -o lib/arm64-v8a/libpacked.so packed.o "$(aarch64-linux-gnu-gcc -print-libgcc-file-name)"
rm packed.o
# the dynamic linker's queries C++ unwinders make (bb-tracer DlTest): unwind tables (ARM: PT_ARM_EXIDX)
$ARM32 -mthumb $CFLAGS -funwind-tables -shared -nostdlib $RELOCS -o lib/armeabi-v7a/libdl-test.so src/dl.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS -funwind-tables -shared -nostdlib $RELOCS -o lib/arm64-v8a/libdl-test.so src/dl.c -lgcc
# libandroid.so imports (bb-tracer LibAndroidTest): linked against a throw-away libandroid.so naming the functions
tmp=$(mktemp -d)
for cc in "$ARM32 -mthumb" aarch64-linux-gnu-gcc; do
  abi=$([ "$cc" = aarch64-linux-gnu-gcc ] && echo arm64-v8a || echo armeabi-v7a)
  grep -o 'A[A-Za-z]*_[A-Za-z0-9]*(' src/android.c | sort -u | sed 's/($/(void) {}/; s/^/void /' \
    | $cc -x c -shared -nostdlib -Wl,-soname,libandroid.so -o "$tmp/libandroid.so" -
  $cc $CFLAGS -shared -nostdlib $RELOCS -o lib/$abi/libandroid-test.so src/android.c -lgcc -L"$tmp" -landroid
done
rm -r "$tmp"
# JNI: jni.h from the JDK that runs javac; no libc headers (-nostdinc; src/jni-shim has an empty stdio.h)
JDK=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
jni() { echo "-nostdinc -isystem $($1 -print-file-name=include) -Isrc/jni-shim -I$JDK/include -I$JDK/include/linux"; }
$ARM32 -mthumb $CFLAGS $(jni arm-linux-gnueabihf-gcc) -shared -nostdlib -o lib/armeabi-v7a/libhyprofdemo.so src/hyprofdemo.c src/kernels.c -lgcc
aarch64-linux-gnu-gcc $CFLAGS $(jni aarch64-linux-gnu-gcc) -shared -nostdlib -o lib/arm64-v8a/libhyprofdemo.so src/hyprofdemo.c src/kernels.c -lgcc
# static executables (hard-float is fine here: nothing else links against them)
arm-linux-gnueabihf-gcc -O2 -static -ffp-contract=off -o static/kernels-armv7 src/main.c src/kernels.c -lm
aarch64-linux-gnu-gcc -O2 -static -ffp-contract=off -o static/kernels-arm64 src/main.c src/kernels.c -lm
arm-linux-gnueabihf-gcc -O2 -static -ffp-contract=off -o static/bench-armv7 src/bench.c src/kernels.c -lm
aarch64-linux-gnu-gcc -O2 -static -ffp-contract=off -o static/bench-arm64 src/bench.c src/kernels.c -lm
# a hot loop across a 1 KiB boundary (issue 17): shared objects and, with the same code, static
# executables for qemu-user's reference counts (reference/straddle-qemu.sh); PAD places the loop
straddle() { # COMPILER PAD OUT.so OUT-exe [flags]
  local cc=$1 pad=$2 so=$3 exe=$4; shift 4
  $cc "$@" $CFLAGS -DPAD=$pad -shared -nostdlib -o "$so" src/straddle.c -lgcc
  $cc "$@" $CFLAGS -DPAD=$pad -DN=1000 -static -nostdlib -o "$exe" src/straddle.c src/straddle_start.c
}
mkdir -p straddle/armeabi-v7a straddle/arm64-v8a straddle/static
straddle "$ARM32" 940 straddle/armeabi-v7a/libstraddle.so straddle/static/straddle-arm -marm
straddle "$ARM32" 958 straddle/armeabi-v7a/libstraddle-thumb.so straddle/static/straddle-thumb -mthumb
straddle aarch64-linux-gnu-gcc 900 straddle/arm64-v8a/libstraddle.so straddle/static/straddle-arm64
{
  echo "Built $(date -u +%Y-%m-%d) by samples/native/build.sh with:"
  arm-linux-gnueabihf-gcc --version | head -1
  aarch64-linux-gnu-gcc --version | head -1
  echo "jni.h from $JDK ($("$JDK/bin/javac" -version 2>&1))"
} > BUILT-WITH.txt
