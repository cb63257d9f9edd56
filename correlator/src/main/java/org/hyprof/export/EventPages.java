package org.hyprof.export;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.BytePackerForLong;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.api.Binary;

/**
 * The events table's own ten columns, encoded into pages here rather than by parquet-java's
 * column writers: a row is ten stores into primitive arrays, and a page's values are encoded at
 * once when it is full ({@link ParquetExport#PAGE_ROWS} rows). On a 10⁷-event session, warm,
 * the export's CPU per event fell 2.7× ({@code bench/README.md}): parquet-java's per-value path
 * hashes each method name into its dictionary, checks its dictionary fallback and updates
 * statistics per value, and allocates a buffer slab every few values.
 *
 * <p>Encodings (all columns required, so pages carry no levels): {@code probe_id} and
 * {@code method} are dictionary-encoded with the same ids, assigned per row group in the order
 * a probe first occurs (an array lookup by probe id, no hashing); {@code kind} has the fixed
 * dictionary {@code method, loop}; {@code start_nanos}, {@code duration_nanos}, {@code depth} and
 * {@code iterations} are {@code DELTA_BINARY_PACKED} (with parquet-java's bit packers: a start
 * time or a duration takes the bits its block needs, not 8 bytes, so ZSTD has far less to read);
 * {@code thrown} and {@code open_at_end} are PLAIN bits; {@code self_energy_microjoules} PLAIN
 * doubles. Every page has min/max statistics but {@code method}'s and {@code kind}'s (every row
 * group holds most names: their min and max prune nothing), as before.
 */
// PLAIN_DICTIONARY and BIT_PACKED: what data pages of format v1 declare, as parquet-java's own v1 writer does (deprecated for v2 pages)
@SuppressWarnings("deprecation")
final class EventPages {
    /** The columns, in the events table's order after its session and thread columns. */
    static final List<String> COLUMNS = List.of("probe_id", "method", "kind", "start_nanos", "duration_nanos", "depth", "thrown",
            "open_at_end", "iterations", "self_energy_microjoules");
    private static final int PROBE = 0, METHOD = 1, KIND = 2, START = 3, DURATION = 4, DEPTH = 5, THROWN = 6, OPEN_AT_END = 7,
            ITERATIONS = 8, ENERGY = 9;
    /** {@code kind}'s dictionary: its ids are 0 for a method, 1 for a loop. */
    private static final Binary[] KINDS = {Binary.fromString("method"), Binary.fromString("loop")};
    /**
     * Probe ids below this get their dictionary id from an array (at most 4 MiB, whatever id a
     * damaged session holds); others (never seen in practice: ids are given from 0 up) from a map.
     */
    private static final int DENSE_PROBES = 1 << 20;

    private final ColumnDescriptor[] columns;
    private final int pageRows;
    private PageWriter[] writers;
    private IntFunction<Binary> names = id -> Binary.fromString("probe#" + id);

    // the page being filled, a slot per row
    private int rows;
    private final int[] dictionaryId, probe, depth;
    private final long[] start, duration, iterations;
    private final double[] energy;
    /** Bit 0: a loop; bit 1: thrown; bit 2: open at the end. */
    private final byte[] flags;

    // the row group's dictionary of probes (and their names), in the order they first occur
    private int[] idOfProbe = new int[256]; // dictionary id + 1 by probe id; 0: not in this group's dictionary yet
    private final Map<Integer, Integer> idOfOtherProbe = new HashMap<>();
    private int[] dictionaryProbes = new int[256];
    private final List<Binary> dictionaryNames = new ArrayList<>();
    private long dictionaryBytes;

    // DELTA_BINARY_PACKED's shape: parquet-java's (and the format's suggested) block and miniblock sizes
    private static final int BLOCK = 128, MINIBLOCK = 32;
    private final long[] deltaBlock = new long[BLOCK];
    private final BytePackerForLong[] packers = new BytePackerForLong[65];
    /** A page's encoded values, reused page after page (the page writer compresses and copies them at once). */
    private final byte[] out;

    /**
     * @param columns the ten columns' descriptors, in {@link #COLUMNS}' order
     * @param pageRows rows per page
     */
    EventPages(List<ColumnDescriptor> columns, int pageRows) {
        if (columns.size() != COLUMNS.size()) throw new IllegalArgumentException("events: " + columns.size() + " columns, not " + COLUMNS.size());
        for (int i = 0; i < COLUMNS.size(); i++)
            if (!columns.get(i).getPath()[0].equals(COLUMNS.get(i)) || columns.get(i).getMaxDefinitionLevel() != 0)
                throw new IllegalArgumentException("events: column " + i + " is " + Arrays.toString(columns.get(i).getPath()) + ", not a required " + COLUMNS.get(i));
        this.columns = columns.toArray(new ColumnDescriptor[0]);
        this.pageRows = pageRows;
        dictionaryId = new int[pageRows + 8]; // bit-packed eight at a time
        probe = new int[pageRows];
        depth = new int[pageRows];
        start = new long[pageRows];
        duration = new long[pageRows];
        iterations = new long[pageRows];
        energy = new double[pageRows];
        flags = new byte[pageRows];
        // the largest page: 64-bit deltas, and per block a minimum (10 bytes) and 4 widths
        out = new byte[(pageRows / BLOCK + 1) * (BLOCK * 8 + 14) + 64];
        for (int w = 0; w <= 64; w++) packers[w] = Packer.LITTLE_ENDIAN.newBytePackerForLong(w);
    }

    /** A new row group's pages go to {@code pages}; its dictionary starts empty. */
    void startGroup(PageWriteStore pages) {
        writers = new PageWriter[columns.length];
        for (int i = 0; i < columns.length; i++) writers[i] = pages.getPageWriter(columns[i]);
        for (int k = 0; k < dictionaryNames.size(); k++) {
            int p = dictionaryProbes[k];
            if (p >= 0 && p < DENSE_PROBES) idOfProbe[p] = 0;
        }
        idOfOtherProbe.clear();
        dictionaryNames.clear();
        dictionaryBytes = 0;
    }

    /** How the rows from here on name a probe id (asked once per probe and row group). */
    void names(IntFunction<Binary> names) {
        this.names = names;
    }

    /** One event row; a full page is encoded and handed to the page writers. */
    void add(int probeId, boolean loop, long startNanos, long durationNanos, int depth, boolean thrown, boolean openAtEnd,
             long iterations, double selfEnergyMicrojoules) throws IOException {
        int r = rows;
        int id;
        if (probeId >= 0 && probeId < idOfProbe.length && idOfProbe[probeId] != 0) id = idOfProbe[probeId] - 1;
        else id = newProbe(probeId);
        dictionaryId[r] = id;
        probe[r] = probeId;
        start[r] = startNanos;
        duration[r] = durationNanos;
        this.depth[r] = depth;
        this.iterations[r] = iterations;
        energy[r] = selfEnergyMicrojoules;
        flags[r] = (byte) ((loop ? 1 : 0) | (thrown ? 2 : 0) | (openAtEnd ? 4 : 0));
        if ((rows = r + 1) == pageRows) writePage();
    }

    private int newProbe(int probeId) {
        Integer known = probeId >= 0 && probeId < DENSE_PROBES ? null : idOfOtherProbe.get(probeId);
        if (known != null) return known;
        int id = dictionaryNames.size();
        Binary name = names.apply(probeId);
        dictionaryNames.add(name);
        dictionaryBytes += 8 + name.length();
        if (id == dictionaryProbes.length) dictionaryProbes = Arrays.copyOf(dictionaryProbes, id * 2);
        dictionaryProbes[id] = probeId;
        if (probeId >= 0 && probeId < DENSE_PROBES) {
            if (probeId >= idOfProbe.length) idOfProbe = Arrays.copyOf(idOfProbe, Math.max(probeId + 1, idOfProbe.length * 2));
            idOfProbe[probeId] = id + 1;
        } else idOfOtherProbe.put(probeId, id);
        return id;
    }

    /** Bytes held for the row group: its pages so far (compressed), the page being filled (raw) and the dictionary. */
    long bufferedBytes() {
        long b = (long) rows * 50 + dictionaryBytes;
        for (PageWriter w : writers) b += w.getMemSize();
        return b;
    }

    /** The row group's last page and its dictionary pages: after this, the page store holds the whole group. */
    void endGroup() throws IOException {
        if (rows > 0) writePage();
        int size = dictionaryNames.size();
        if (size == 0) return;
        byte[] ids = new byte[size * 4];
        ByteBuffer b = ByteBuffer.wrap(ids).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < size; k++) b.putInt(dictionaryProbes[k]);
        writers[PROBE].writeDictionaryPage(new DictionaryPage(BytesInput.from(ids), size, Encoding.PLAIN_DICTIONARY));
        writers[METHOD].writeDictionaryPage(new DictionaryPage(strings(dictionaryNames), size, Encoding.PLAIN_DICTIONARY));
        writers[KIND].writeDictionaryPage(new DictionaryPage(strings(List.of(KINDS)), KINDS.length, Encoding.PLAIN_DICTIONARY));
    }

    private static BytesInput strings(List<Binary> values) {
        int bytes = 0;
        for (Binary v : values) bytes += 4 + v.length();
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (Binary v : values) b.putInt(v.length()).put(v.toByteBuffer());
        return BytesInput.from(b.array());
    }

    private void writePage() throws IOException {
        int n = rows;
        rows = 0;
        // probe_id and method: the same dictionary ids
        int minProbe = Integer.MAX_VALUE, maxProbe = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            minProbe = Math.min(minProbe, probe[i]);
            maxProbe = Math.max(maxProbe, probe[i]);
        }
        int length = dictionaryIds(dictionaryId, n, dictionaryNames.size());
        page(PROBE, length, n, stats(PROBE, minProbe, maxProbe), Encoding.PLAIN_DICTIONARY);
        page(METHOD, length, n, Statistics.noopStats(columns[METHOD].getPrimitiveType()), Encoding.PLAIN_DICTIONARY);
        int[] kinds = dictionaryId; // reused: its ids are written
        for (int i = 0; i < n; i++) kinds[i] = flags[i] & 1;
        length = dictionaryIds(kinds, n, KINDS.length);
        page(KIND, length, n, Statistics.noopStats(columns[KIND].getPrimitiveType()), Encoding.PLAIN_DICTIONARY);
        deltas(START, start, n);
        deltas(DURATION, duration, n);
        int minDepth = Integer.MAX_VALUE, maxDepth = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            minDepth = Math.min(minDepth, depth[i]);
            maxDepth = Math.max(maxDepth, depth[i]);
        }
        page(DEPTH, deltaBinaryPacked(null, depth, n), n, stats(DEPTH, minDepth, maxDepth), Encoding.DELTA_BINARY_PACKED);
        bits(THROWN, 2, n);
        bits(OPEN_AT_END, 4, n);
        deltas(ITERATIONS, iterations, n);
        Statistics<?> energyStats = Statistics.createStats(columns[ENERGY].getPrimitiveType());
        for (int i = 0; i < n; i++) energyStats.updateStats(energy[i]);
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(energy, 0, n);
        page(ENERGY, n * 8, n, energyStats, Encoding.PLAIN);
    }

    private Statistics<?> stats(int column, long min, long max) {
        Statistics<?> s = Statistics.createStats(columns[column].getPrimitiveType());
        if (s instanceof org.apache.parquet.column.statistics.IntStatistics) {
            s.updateStats((int) min);
            s.updateStats((int) max);
        } else {
            s.updateStats(min);
            s.updateStats(max);
        }
        return s;
    }

    /** The first {@code length} bytes of {@link #out} as the column's next page (compressed and copied by the page writer). */
    private void page(int column, int length, int n, Statistics<?> stats, Encoding values) throws IOException {
        writers[column].writePage(BytesInput.from(out, 0, length), n, n, stats, Encoding.BIT_PACKED, Encoding.BIT_PACKED, values);
    }

    /**
     * A dictionary-encoded data page's values into {@link #out}: the ids' bit width (one byte),
     * then the ids as one bit-packed run of the RLE/bit-packing hybrid (a header, then groups of
     * eight ids, the last group padded with zeros).
     */
    private int dictionaryIds(int[] ids, int n, int dictionarySize) {
        int width = Math.max(1, BytesUtils.getWidthFromMaxInt(dictionarySize - 1));
        int groups = (n + 7) / 8;
        Arrays.fill(ids, n, groups * 8, 0);
        out[0] = (byte) width;
        int p = varint(out, 1, ((long) groups << 1) | 1);
        BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(width);
        for (int g = 0; g < groups; g++, p += width) packer.pack8Values(ids, g * 8, out, p);
        return p;
    }

    private void deltas(int column, long[] values, int n) throws IOException {
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
        }
        page(column, deltaBinaryPacked(values, null, n), n, stats(column, min, max), Encoding.DELTA_BINARY_PACKED);
    }

    /**
     * {@code DELTA_BINARY_PACKED} into {@link #out}, as the format defines it: a header (values
     * per block, miniblocks per block, value count, first value), then per block of 128 deltas
     * its minimum delta and four miniblocks of 32 deltas less that minimum, each bit-packed at
     * the width its largest needs (a last miniblock padded with zeros, unused ones width 0 and no
     * bytes). Deltas wrap around as the format's arithmetic does: of {@code longs}, or, when it is
     * null, of {@code ints} in 32 bits.
     */
    private int deltaBinaryPacked(long[] longs, int[] ints, int n) {
        long[] d = deltaBlock;
        int p = varint(out, 0, BLOCK);
        p = varint(out, p, BLOCK / MINIBLOCK);
        p = varint(out, p, n);
        if (n == 0) return varint(out, p, 0);
        p = varint(out, p, zigzag(longs != null ? longs[0] : ints[0]));
        for (int i = 1; i < n; i += BLOCK) {
            int m = Math.min(BLOCK, n - i);
            long min = Long.MAX_VALUE;
            if (longs != null) {
                for (int k = 0; k < m; k++) min = Math.min(min, d[k] = longs[i + k] - longs[i + k - 1]);
            } else {
                for (int k = 0; k < m; k++) min = Math.min(min, d[k] = ints[i + k] - ints[i + k - 1]);
            }
            p = varint(out, p, zigzag(min));
            int widths = p;
            p += BLOCK / MINIBLOCK;
            for (int b = 0; b < BLOCK / MINIBLOCK; b++) {
                int from = b * MINIBLOCK, to = Math.min(from + MINIBLOCK, m);
                if (from >= m) {
                    out[widths + b] = 0;
                    continue;
                }
                long or = 0;
                if (longs != null) {
                    for (int k = from; k < to; k++) or |= d[k] -= min;
                } else { // 32-bit deltas: their difference from the minimum as an unsigned int
                    for (int k = from; k < to; k++) or |= d[k] = (d[k] - min) & 0xFFFF_FFFFL;
                }
                for (int k = to; k < from + MINIBLOCK; k++) d[k] = 0;
                int width = 64 - Long.numberOfLeadingZeros(or);
                out[widths + b] = (byte) width;
                packers[width].pack32Values(d, from, out, p);
                p += 4 * width;
            }
        }
        return p;
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    /** ULEB128. */
    private static int varint(byte[] b, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    /** A boolean column from one bit of {@link #flags}: PLAIN, eight values a byte, the first in the lowest bit. */
    private void bits(int column, int mask, int n) throws IOException {
        int bytes = (n + 7) / 8;
        Arrays.fill(out, 0, bytes, (byte) 0);
        int set = 0;
        for (int i = 0; i < n; i++) {
            if ((flags[i] & mask) != 0) {
                out[i >>> 3] |= (byte) (1 << (i & 7));
                set++;
            }
        }
        Statistics<?> stats = Statistics.createStats(columns[column].getPrimitiveType());
        if (set < n) stats.updateStats(false);
        if (set > 0) stats.updateStats(true);
        page(column, bytes, n, stats, Encoding.PLAIN);
    }
}
