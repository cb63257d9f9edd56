"""Damaged copies of a compiled power profile, one problem each, for PowerProfileTest.

usage: python3 make-invalid.py GOOD.axml OUTDIR   (run by build.sh)
Chunks: type:u16 headerSize:u16 size:u32, little-endian (AOSP ResourceTypes.h).
"""
import struct
import sys

good = open(sys.argv[1], 'rb').read()
out = sys.argv[2]


def chunks(b):
    pos = struct.unpack_from('<H', b, 2)[0]
    while pos < len(b):
        t, h, size = struct.unpack_from('<HHI', b, pos)
        yield pos, t, h, size
        pos += size


def first(b, chunk_type):
    return next(c for c in chunks(b) if c[1] == chunk_type)


def write(name, b):
    open(f'{out}/{name}', 'wb').write(bytes(b))


POOL, START, END, CDATA = 0x0001, 0x0102, 0x0103, 0x0104

# the file ends in the middle of the document
write('truncated.axml', good[:len(good) // 2])

# an element chunk claims more bytes than the document has
b = bytearray(good); pos = first(b, START)[0]
struct.pack_into('<I', b, pos + 4, 0xFFFFFF00)
write('bad-chunk-size.axml', b)

# an element chunk claims fewer bytes than its own header
b = bytearray(good); pos = first(b, START)[0]
struct.pack_into('<I', b, pos + 4, 4)
write('chunk-smaller-than-header.axml', b)

# the root element's name is string 0x7fffffff
b = bytearray(good); pos, _, h, _ = first(b, START)
struct.pack_into('<I', b, pos + h + 4, 0x7FFFFFFF)
write('string-index-out-of-range.axml', b)

# the pool claims 2^28 strings (an allocation of 1 GiB if trusted)
b = bytearray(good); pos = first(b, POOL)[0]
struct.pack_into('<I', b, pos + 8, 0x10000000)
write('huge-string-count.axml', b)

# the first string's length runs past the pool
b = bytearray(good); pos, _, h, _ = first(b, POOL)
strings_start = struct.unpack_from('<I', b, pos + 20)[0]
offset0 = struct.unpack_from('<I', b, pos + h)[0]
struct.pack_into('<H', b, pos + strings_start + offset0, 0x7FFF)
write('string-past-pool.axml', b)

# a text chunk's typed value of an unknown type (no string given)
b = bytearray(good); pos, _, h, _ = first(b, CDATA)
struct.pack_into('<i', b, pos + h, -1)
b[pos + h + 4 + 3] = 0x77
write('unknown-value-type.axml', b)

# the first end-element names another element than the one open
b = bytearray(good); pos, _, h, _ = first(b, END)
start_pos, _, start_h, _ = first(b, START)
root_name = struct.unpack_from('<I', b, start_pos + start_h + 4)[0]
struct.pack_into('<I', b, pos + h + 4, root_name)
write('mismatched-end.axml', b)

# the document stops (with a consistent size) before its root element is closed
last_end = [c for c in chunks(good) if c[1] == END][-1][0]
b = bytearray(good[:last_end]); struct.pack_into('<I', b, 4, len(b))
write('unclosed-element.axml', b)

# attributes claimed beyond the element chunk
b = bytearray(good); pos, _, h, _ = first(b, START)
struct.pack_into('<H', b, pos + h + 12, 0xFFFF)
write('attributes-past-chunk.axml', b)
