#!/usr/bin/env bash
# Broken inputs for bb-tracer's bad-input tests (checked in; run to regenerate).
set -euo pipefail
cd "$(dirname "$0")"
printf 'this is not an ELF file\n' > not-elf.so
head -c 300 ../lib/armeabi-v7a/libkernels.so > truncated.so
printf 'int f(int x) { return x + 1; }\n' | gcc -x c -shared -fPIC -o x86-64.so -
# bad-reloc.so: the first relocation of the first REL section gets type 99 (no such ARM relocation)
cp ../lib/armeabi-v7a/libkernels.so bad-reloc.so
python3 - <<'PY'
import struct
b = bytearray(open('bad-reloc.so', 'rb').read())
shoff, = struct.unpack_from('<I', b, 0x20); shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x2e)
names_off = struct.unpack_from('<I', b, shoff + shstrndx * shentsize + 0x10)[0]
for i in range(shnum):
    h = shoff + i * shentsize
    name, typ, flags, addr, off, size = struct.unpack_from('<IIIIII', b, h)
    n = bytes(b[names_off + name:names_off + name + 16]).split(b'\0')[0]
    if typ == 9:  # SHT_REL
        info, = struct.unpack_from('<I', b, off + 4)
        struct.pack_into('<I', b, off + 4, (info & ~0xff) | 99)
        break
else:
    raise SystemExit('no REL section')
open('bad-reloc.so', 'wb').write(b)
PY
# missing-symbol.so (arm64, -nostdlib: under --userland bionic it gets libc.so and libm.so): calls a
# function no system library defines
printf 'extern int no_such_function_anywhere(int);\nint call_missing(int x) { return no_such_function_anywhere(x); }\n' \
  | aarch64-linux-gnu-gcc -x c -O2 -shared -fPIC -nostdlib -o missing-symbol.so -
# bad-needed.so (arm64): its DT_NEEDED entry is a path out of its directory, "../../../etc/passwd"
# (the soname of a throw-away library it is linked against)
tmp=$(mktemp -d)
printf 'int g(void) { return 1; }\n' | aarch64-linux-gnu-gcc -x c -shared -fPIC -nostdlib -Wl,-soname,../../../etc/passwd -o "$tmp/libx.so" -
printf 'int g(void);\nint f(int x) { return x + g(); }\n' | aarch64-linux-gnu-gcc -x c -O2 -shared -fPIC -nostdlib -o bad-needed.so - -x none "$tmp/libx.so"
rm -r "$tmp"
# packed-android.so (arm64): librelocs.so with its DT_TLSDESC_PLT tag turned into DT_ANDROID_RELA
# (APS2 packed relocations) pointing at bytes that are no APS2 stream: refused as damaged
python3 - packed-android.so 0x60000011 <<'PY'
import struct, sys
b = bytearray(open('../lib/arm64-v8a/librelocs.so', 'rb').read())
phoff, = struct.unpack_from('<Q', b, 0x20); phentsize, phnum = struct.unpack_from('<HH', b, 0x36)
for i in range(phnum):
    typ, flags, off, vaddr, paddr, filesz = struct.unpack_from('<IIQQQQ', b, phoff + i * phentsize)
    if typ == 2:  # PT_DYNAMIC
        for at in range(off, off + filesz, 16):
            tag, = struct.unpack_from('<q', b, at)
            if tag == 0x6ffffef6:  # DT_TLSDESC_PLT
                struct.pack_into('<q', b, at, int(sys.argv[2], 0))
                open(sys.argv[1], 'wb').write(b)
                raise SystemExit
raise SystemExit('no DT_TLSDESC_PLT')
PY
