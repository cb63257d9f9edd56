package org.hyprof.instrument.dex;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The structural checks Android's own verifier makes (what {@code dexdump} reports as "Failure to
 * verify dex file") and dexlib2 skips: dexlib2 reads whatever an offset points at, so a damaged
 * file is rewritten into output that Android refuses, or fails deep inside a rewrite.
 * <b>Checked:</b> every section of the header lies inside the file, aligned, with offset 0 when
 * empty; the map list is inside the file, starts with the header, is sorted, names each known
 * item type once, agrees with the header on every id section and keeps data items inside the
 * data section; every index in the id sections and class definitions is in range and every
 * offset points into the data section; every string is modified UTF-8 of its declared length;
 * every method's code lies inside the code-item section and its try items and handlers inside
 * its code. Not checked (Android's verifier does, at install
 * time or in {@code dexdump}): the sort order of the ids, type descriptor syntax, access flags,
 * annotation and debug-info contents, padding; instruction operands are left to dexlib2, which
 * {@link DexFiles#read} makes decode every instruction once.
 *
 * <p>Input is the whole file, already checked for size, magic, version, header size and byte
 * order by {@link DexFiles#read}. Each problem is a {@link DexFiles.DexException} with a short
 * description (no file name: the caller adds it).
 */
final class DexStructure {
    private static final int NO_INDEX = -1;

    /** Map item types and the fixed size of one item (0: variable). */
    private static final Map<Integer, Integer> ITEM_SIZE = new HashMap<>();
    private static final Map<Integer, String> ITEM_NAME = new HashMap<>();

    private static void item(int type, String name, int size) {
        ITEM_SIZE.put(type, size);
        ITEM_NAME.put(type, name);
    }

    static {
        item(0x0000, "header", 0x70);
        item(0x0001, "string_ids", 4);
        item(0x0002, "type_ids", 4);
        item(0x0003, "proto_ids", 12);
        item(0x0004, "field_ids", 8);
        item(0x0005, "method_ids", 8);
        item(0x0006, "class_defs", 32);
        item(0x0007, "call_site_ids", 4);
        item(0x0008, "method_handles", 8);
        item(0x1000, "map_list", 0);
        item(0x1001, "type_lists", 0);
        item(0x1002, "annotation_set_ref_lists", 0);
        item(0x1003, "annotation_sets", 0);
        item(0x2000, "class_data", 0);
        item(0x2001, "code_items", 0);
        item(0x2002, "string_data", 0);
        item(0x2003, "debug_info", 0);
        item(0x2004, "annotations", 0);
        item(0x2005, "encoded_arrays", 0);
        item(0x2006, "annotations_directories", 0);
        item(0xF000, "hiddenapi_class_data", 0);
    }

    private final byte[] b;
    private final ByteBuffer h;
    private final long dataStart, dataEnd;
    private int strings, types, protos, fields, methods;
    /** The code-item section: [codeStart, codeEnd). */
    private long codeStart, codeEnd;

    private DexStructure(byte[] b) {
        this.b = b;
        this.h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        this.dataStart = u32(0x6c);
        this.dataEnd = dataStart + u32(0x68);
    }

    /** Checks the structure of a whole DEX file; the exception's message names the problem. */
    static void check(byte[] b) throws DexFiles.DexException {
        new DexStructure(b).run();
    }

    private void run() throws DexFiles.DexException {
        section("link", 0x2c, 1, 1);
        section("string_ids", 0x38, 4, 4);
        section("type_ids", 0x40, 4, 4);
        section("proto_ids", 0x48, 12, 4);
        section("field_ids", 0x50, 8, 4);
        section("method_ids", 0x58, 8, 4);
        section("class_defs", 0x60, 32, 4);
        section("data", 0x68, 1, 1);
        strings = (int) u32(0x38);
        types = (int) u32(0x40);
        protos = (int) u32(0x48);
        fields = (int) u32(0x50);
        methods = (int) u32(0x58);
        if (types > 0xffff) fail("more than 65,535 type_ids (" + types + ")");
        if (protos > 0xffff) fail("more than 65,535 proto_ids (" + protos + ")");
        mapList();
        ids();
        classDefs();
    }

    /** A header section: {@code size} at {@code at}, offset at {@code at + 4}, inside the file. */
    private void section(String name, int at, int itemSize, int align) throws DexFiles.DexException {
        long size = u32(at), off = u32(at + 4);
        if (size == 0) {
            if (off != 0) fail(name + " is empty but its offset is " + hex(off) + " (must be 0)");
            return;
        }
        if (off >= b.length) fail(name + " offset " + hex(off) + " is past the end of the file (" + b.length + " bytes)");
        if (off < DexFiles.HEADER_SIZE) fail(name + " offset " + hex(off) + " is inside the header");
        if (off % align != 0) fail(name + " offset " + hex(off) + " is not " + align + "-byte aligned");
        if (off + size * itemSize > b.length)
            fail(name + " (" + size + " × " + itemSize + " bytes at " + hex(off) + ") runs past the end of the file ("
                    + b.length + " bytes)");
    }

    private void mapList() throws DexFiles.DexException {
        long off = u32(0x34);
        if (off == 0) fail("no map list (map offset 0)");
        if (off + 4 > b.length) fail("map list offset " + hex(off) + " is past the end of the file (" + b.length + " bytes)");
        if (off % 4 != 0) fail("map list offset " + hex(off) + " is not 4-byte aligned");
        long count = u32((int) off);
        if (off + 4 + count * 12 > b.length)
            fail("map list (" + count + " items at " + hex(off) + ") runs past the end of the file (" + b.length + " bytes)");
        Map<Integer, long[]> seen = new HashMap<>();
        long previous = -1;
        int[] order = new int[(int) count];
        for (int i = 0; i < count; i++) {
            int p = (int) (off + 4 + i * 12L);
            int type = h.getShort(p) & 0xffff;
            long size = u32(p + 4), at = u32(p + 8);
            String name = ITEM_NAME.get(type);
            if (name == null) fail("map list item " + i + ": unknown item type " + hex(type));
            if (seen.put(type, new long[] {size, at}) != null) fail("map list: " + name + " listed twice");
            if (i == 0 && (type != 0 || at != 0 || size != 1)) fail("map list does not start with the header");
            if (at <= previous) fail("map list: " + name + " at " + hex(at) + " is out of order");
            if (at >= b.length) fail("map list: " + name + " at " + hex(at) + " is past the end of the file (" + b.length + " bytes)");
            int itemSize = ITEM_SIZE.get(type);
            if (itemSize > 0 && at + size * itemSize > b.length)
                fail("map list: " + name + " (" + size + " items at " + hex(at) + ") runs past the end of the file");
            if (type >= 0x1000 && type < 0xF000 && (at < dataStart || at >= dataEnd))
                fail("map list: " + name + " at " + hex(at) + " is outside the data section");
            order[i] = type;
            previous = at;
        }
        long[] map = seen.get(0x1000);
        if (map == null || map[1] != off) fail("map list does not list itself at " + hex(off));
        String[] idSections = {"string_ids", "type_ids", "proto_ids", "field_ids", "method_ids", "class_defs"};
        for (int t = 1; t <= 6; t++) {
            long size = u32(0x38 + (t - 1) * 8), at = u32(0x3c + (t - 1) * 8);
            long[] m = seen.get(t);
            long mSize = m == null ? 0 : m[0], mAt = m == null ? 0 : m[1];
            if (mSize != size || (size != 0 && mAt != at))
                fail("map list and header disagree on " + idSections[t - 1] + " (map: " + mSize + " at " + hex(mAt)
                        + ", header: " + size + " at " + hex(at) + ")");
        }
        long[] code = seen.get(0x2001);
        if (code != null) {
            codeStart = code[1];
            codeEnd = dataEnd;
            for (int i = 0; i < count; i++) {
                long at = seen.get(order[i])[1];
                if (at > codeStart && at < codeEnd) codeEnd = at;
            }
        }
    }

    private void ids() throws DexFiles.DexException {
        int at = (int) u32(0x3c);
        for (int i = 0; i < strings; i++) {
            long off = u32(at + i * 4);
            dataOffset("string_ids[" + i + "] data", off, false);
            stringData(i, (int) off);
        }
        at = (int) u32(0x44);
        for (int i = 0; i < types; i++) index("type_ids[" + i + "] descriptor", u32(at + i * 4), strings, "string");
        at = (int) u32(0x4c);
        for (int i = 0; i < protos; i++) {
            int p = at + i * 12;
            index("proto_ids[" + i + "] shorty", u32(p), strings, "string");
            index("proto_ids[" + i + "] return type", u32(p + 4), types, "type");
            dataOffset("proto_ids[" + i + "] parameters", u32(p + 8), true);
        }
        at = (int) u32(0x54);
        for (int i = 0; i < fields; i++) {
            int p = at + i * 8;
            index("field_ids[" + i + "] class", u16(p), types, "type");
            index("field_ids[" + i + "] type", u16(p + 2), types, "type");
            index("field_ids[" + i + "] name", u32(p + 4), strings, "string");
        }
        at = (int) u32(0x5c);
        for (int i = 0; i < methods; i++) {
            int p = at + i * 8;
            index("method_ids[" + i + "] class", u16(p), types, "type");
            index("method_ids[" + i + "] prototype", u16(p + 2), protos, "proto");
            index("method_ids[" + i + "] name", u32(p + 4), strings, "string");
        }
    }

    private void classDefs() throws DexFiles.DexException {
        int at = (int) u32(0x64), n = (int) u32(0x60);
        for (int i = 0; i < n; i++) {
            int p = at + i * 32;
            String c = "class_defs[" + i + "]";
            index(c + " class", u32(p), types, "type");
            if ((int) u32(p + 8) != NO_INDEX) index(c + " superclass", u32(p + 8), types, "type");
            dataOffset(c + " interfaces", u32(p + 12), true);
            if ((int) u32(p + 16) != NO_INDEX) index(c + " source file", u32(p + 16), strings, "string");
            dataOffset(c + " annotations", u32(p + 20), true);
            dataOffset(c + " static values", u32(p + 28), true);
            long classData = u32(p + 24);
            dataOffset(c + " class data", classData, true);
            if (classData != 0) classData(c, (int) classData);
        }
    }

    /** class_data_item: fields and methods with in-range ids, code offsets into the code items. */
    private void classData(String c, int p) throws DexFiles.DexException {
        int[] pos = {p};
        long staticFields = uleb(pos, c), instanceFields = uleb(pos, c), direct = uleb(pos, c), virtual = uleb(pos, c);
        members(c, pos, staticFields, false);
        members(c, pos, instanceFields, false);
        members(c, pos, direct, true);
        members(c, pos, virtual, true);
    }

    /** One list of encoded fields or methods (ids as differences from the previous one). */
    private void members(String c, int[] pos, long count, boolean isMethod) throws DexFiles.DexException {
        long idx = 0;
        for (long k = 0; k < count; k++) {
            idx += uleb(pos, c);
            uleb(pos, c); // access flags
            if (!isMethod) {
                if (idx >= fields) fail(c + " class data: field index " + idx + " out of range (" + fields + " field_ids)");
                continue;
            }
            long code = uleb(pos, c);
            if (idx >= methods) fail(c + " class data: method index " + idx + " out of range (" + methods + " method_ids)");
            if (code != 0) codeItem("method_ids[" + idx + "]", code);
        }
    }

    /** code_item: inside the code-item section; instructions, try items and handlers inside it. */
    private void codeItem(String m, long off) throws DexFiles.DexException {
        if (off >= b.length)
            fail(m + " code offset " + hex(off) + " is past the end of the file (" + b.length + " bytes)");
        if (off < codeStart || off >= codeEnd || off % 4 != 0)
            fail(m + " code offset " + hex(off) + " is not in the code-item section (" + hex(codeStart) + " to " + hex(codeEnd) + ")");
        int p = (int) off;
        if (p + 16 > codeEnd) fail(m + " code item at " + hex(off) + " runs past the code-item section");
        int registers = u16(p), ins = u16(p + 2), tries = u16(p + 6);
        long insns = u32(p + 12);
        if (ins > registers) fail(m + " code item: " + ins + " argument registers but only " + registers + " registers");
        long end = off + 16 + insns * 2;
        if (end > codeEnd) fail(m + " code item (" + insns + " code units at " + hex(off) + ") runs past the code-item section");
        if (tries == 0) return;
        long triesAt = (end + 3) & ~3L, handlersAt = triesAt + tries * 8L;
        if (handlersAt >= codeEnd) fail(m + " try items run past the code-item section");
        int[] pos = {(int) handlersAt};
        long handlerLists = uleb(pos, m);
        Set<Long> handlerStarts = new HashSet<>();
        for (long k = 0; k < handlerLists; k++) {
            handlerStarts.add(pos[0] - handlersAt);
            long size = sleb(pos, m);
            for (long j = 0; j < Math.abs(size); j++) {
                index(m + " handler type", uleb(pos, m), types, "type");
                long addr = uleb(pos, m);
                if (addr >= insns) fail(m + " handler address " + addr + " is past the code (" + insns + " code units)");
            }
            if (size <= 0) {
                long addr = uleb(pos, m);
                if (addr >= insns) fail(m + " catch-all address " + addr + " is past the code (" + insns + " code units)");
            }
        }
        for (int k = 0; k < tries; k++) {
            int t = (int) triesAt + k * 8;
            long start = u32(t), count = u16(t + 4), handler = u16(t + 6);
            if (start + count > insns) fail(m + " try item " + k + " covers code units past the code (" + insns + ")");
            if (!handlerStarts.contains(handler)) fail(m + " try item " + k + ": no handler at offset " + handler);
        }
    }

    /** string_data_item: MUTF-8 ending in 0 with as many UTF-16 units as its length says. */
    private void stringData(int i, int off) throws DexFiles.DexException {
        int[] pos = {off};
        long declared = uleb(pos, "string_ids[" + i + "] data");
        long units = 0;
        for (int p = pos[0]; ; units++) {
            if (p >= b.length) fail("string_ids[" + i + "] data runs past the end of the file");
            int x = b[p++] & 0xff;
            if (x == 0) break;
            int more = x < 0x80 ? 0 : x >= 0xc0 && x < 0xe0 ? 1 : x >= 0xe0 && x < 0xf0 ? 2 : -1;
            if (more < 0) fail("string_ids[" + i + "] data: byte " + hex(x) + " cannot start a character (modified UTF-8)");
            for (int k = 0; k < more; k++) {
                if (p >= b.length || (b[p++] & 0xc0) != 0x80)
                    fail("string_ids[" + i + "] data: bad continuation byte (modified UTF-8)");
            }
        }
        if (units != declared) fail("string_ids[" + i + "] data has " + units + " UTF-16 units, its length says " + declared);
    }

    private void dataOffset(String what, long off, boolean optional) throws DexFiles.DexException {
        if (optional && off == 0) return;
        if (off >= b.length) fail(what + " offset " + hex(off) + " is past the end of the file (" + b.length + " bytes)");
        if (off < dataStart || off >= dataEnd) fail(what + " offset " + hex(off) + " is outside the data section");
    }

    private static void index(String what, long index, int count, String kind) throws DexFiles.DexException {
        if (index >= count) fail(what + ": " + kind + " index " + index + " out of range (" + count + " " + kind + "_ids)");
    }

    private long uleb(int[] pos, String where) throws DexFiles.DexException {
        long v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (pos[0] >= b.length) fail(where + ": LEB128 value runs past the end of the file");
            int x = b[pos[0]++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) return v & 0xffffffffL;
        }
        fail(where + ": LEB128 value longer than 5 bytes");
        return 0;
    }

    private long sleb(int[] pos, String where) throws DexFiles.DexException {
        int start = pos[0];
        long v = uleb(pos, where);
        int bits = Math.min(32, 7 * (pos[0] - start));
        return bits < 32 && (v & (1L << (bits - 1))) != 0 ? v - (1L << bits) : (int) v;
    }

    private long u32(int at) {
        return h.getInt(at) & 0xffffffffL;
    }

    private int u16(int at) {
        return h.getShort(at) & 0xffff;
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static void fail(String problem) throws DexFiles.DexException {
        throw new DexFiles.DexException(problem);
    }
}
