package org.hyprof.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.hyprof.analysis.CallStream;
import org.hyprof.analysis.Timeline;
import org.hyprof.correlate.MethodRow;
import org.hyprof.correlate.Profile;
import org.hyprof.store.NativeBlock;
import org.hyprof.store.NativeEpoch;
import org.hyprof.store.ProcessInfo;
import org.hyprof.store.Store;

/**
 * A session's tables as Parquet files, so that the exports of many sessions (builds, devices, CI
 * runs) are one table to DuckDB, Spark or Trino. Layout: {@code DIR/<session_id>/<table>.parquet},
 * one directory per session, so {@code read_parquet('DIR/*}{@code /methods.parquet')} is every
 * session's methods; exporting a session again replaces its directory (the id is stable).
 *
 * <p>Tables: {@code processes}, {@code threads}, {@code methods}, {@code loops} (the report's rows
 * per process), {@code native_epochs}, {@code native_blocks} (one row per block and calling
 * method) and, when a process was recorded in events mode, {@code events} (one row per call or
 * loop activation). Every row starts with the same session columns ({@link #SESSION_COLUMNS}):
 * schema version, session id and file, process, VM, ABI, CPU profile, power profile and the
 * user's labels as a {@code MAP<VARCHAR, VARCHAR>} — one schema for every session whatever its
 * labels, so a directory is one table without schema merging ({@code labels['build']} in DuckDB,
 * {@code labels['build']} in Spark SQL and Trino). The file footer repeats the version as
 * key-value metadata {@code hyprof.schema_version} and names the table ({@code hyprof.table}).
 * The column list of each table is the golden file {@code parquet/schema.txt} of this module's
 * tests; README's Exports section documents it. Version {@value #SCHEMA_VERSION}: columns are
 * only ever added in a later version, never renamed or retyped without a version bump.
 *
 * <p>Memory: the events stream out of the store a chunk at a time ({@link CallStream}); each
 * writer holds at most one row group ({@link #ROW_GROUP_BYTES}) before it is flushed to the file.
 * Pages are ZSTD-compressed; zstd-jni's native library is extracted into a directory only this
 * user can write ({@link #privateNativeDirectory}) before it is loaded.
 */
public final class ParquetExport {
    private ParquetExport() {}

    /** The version of the files' schema: the {@code schema_version} column and the footer's {@code hyprof.schema_version}. */
    public static final int SCHEMA_VERSION = 1;
    /** The tables, in the order they are written; {@code events} only for sessions with event logs. */
    public static final List<String> TABLES = List.of("processes", "threads", "methods", "loops", "native_epochs", "native_blocks", "events");
    /** The columns every table starts with. */
    public static final List<String> SESSION_COLUMNS = List.of("schema_version", "session_id", "session_file", "process_id", "pid",
            "process", "vm", "abi", "cpu_profile", "power_profile", "labels");
    /** Bytes of rows a writer buffers before it writes a row group: bounds the heap whatever the session's size. */
    static final long ROW_GROUP_BYTES = 16L << 20;
    /** A page's limits (parquet-java's default is 1 MiB or 20,000 rows: bigger pages, fewer compressor calls and page headers). */
    static final int PAGE_BYTES = 1 << 20, PAGE_ROWS = 100_000;
    /** ZSTD's level for every page (parquet-java's default is 3). */
    static final int ZSTD_LEVEL = 3;

    /** What was written for one session: its id, directory and rows per table. */
    public record Written(String sessionId, Path directory, Map<String, Long> rows) {}

    /**
     * A session's stable id: the first 16 hex digits of the SHA-256 of its file name and of each
     * process's pid, name and start times. The same session exported twice (or from a copy with the
     * same name) gets the same id; two runs never do.
     */
    public static String sessionId(Store store, String fileName) {
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder b = new StringBuilder(fileName);
        for (ProcessInfo p : store.processes())
            b.append('\n').append(p.pid()).append(' ').append(p.name()).append(' ').append(p.startWallMillis()).append(' ').append(p.startNanos());
        return HexFormat.of().formatHex(d.digest(b.toString().getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }

    /**
     * Writes {@code store}'s tables into {@code dir/<session id>/} (made or replaced as a whole:
     * written beside it and moved into place, so a failed export leaves what was there).
     * {@code sessionFile} names the session in the rows; {@code labels} (key → value) go into every
     * row's {@code labels}.
     */
    public static Written write(Store store, Path sessionFile, Map<String, String> labels, Path dir) throws IOException {
        usePrivateNativeDirectory();
        String fileName = sessionFile.getFileName().toString();
        String id = sessionId(store, fileName);
        Files.createDirectories(dir);
        Path target = dir.resolve(id);
        Path tmp = Files.createTempDirectory(dir, "." + id + "-");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x")); // a plain directory, as mkdir makes it (a temporary one is private)
        Map<String, Long> rows = new LinkedHashMap<>();
        try {
            List<Context> contexts = new ArrayList<>();
            for (ProcessInfo p : store.processes()) contexts.add(new Context(store, p, id, fileName, labels));
            rows.put("processes", processes(store, contexts, tmp));
            rows.put("threads", threads(contexts, tmp));
            rows.put("methods", methods(contexts, tmp, false));
            rows.put("loops", methods(contexts, tmp, true));
            rows.put("native_epochs", nativeEpochs(store, contexts, tmp));
            rows.put("native_blocks", nativeBlocks(store, contexts, tmp));
            boolean events = false;
            for (Context c : contexts) events |= c.process.mode().equals("events") || store.eventChunkCount(c.process.id()) > 0;
            if (events) rows.put("events", events(store, contexts, tmp));
            replace(tmp, target);
        } finally {
            deleteTree(tmp);
        }
        return new Written(id, target, rows);
    }

    // ------------------------------------------------------------------ the tables

    private static long processes(Store store, List<Context> contexts, Path dir) throws IOException {
        Schema s = new Schema("processes").str("status").str("mode").i64("budget_bytes").i64("start_wall_millis").i64("start_nanos")
                .optI64("end_wall_millis").i64("event_drops").str("source").i64("threads").i64("calls").i64("time_nanos")
                .i64("time_raw_nanos").i64("native_est_nanos").f64("java_energy_microjoules").f64("native_energy_microjoules");
        try (Table t = new Table(s, dir)) {
            for (Context c : contexts) {
                ProcessInfo p = c.process;
                Profile.ProcessRow r = c.profile().processes().stream().filter(x -> x.id() == p.id()).findFirst().orElse(null);
                Row g = t.row(c).append("status", p.status()).append("mode", p.mode()).append("budget_bytes", p.budgetBytes())
                        .append("start_wall_millis", p.startWallMillis()).append("start_nanos", p.startNanos());
                if (p.endWallMillis() != null) g.append("end_wall_millis", p.endWallMillis());
                g.append("event_drops", p.eventDrops()).append("source", p.source() == null ? "" : p.source())
                        .append("threads", r == null ? 0 : r.threads()).append("calls", r == null ? 0 : r.calls())
                        .append("time_nanos", r == null ? 0 : r.timeNanos()).append("time_raw_nanos", r == null ? 0 : r.timeRawNanos())
                        .append("native_est_nanos", r == null ? 0 : r.nativeEstNanos())
                        .append("java_energy_microjoules", r == null ? 0 : r.javaEnergyMicrojoules())
                        .append("native_energy_microjoules", r == null ? 0 : r.nativeEnergyMicrojoules());
                t.add(g);
            }
            return t.rows;
        }
    }

    private static long threads(List<Context> contexts, Path dir) throws IOException {
        Schema s = new Schema("threads").i64("tid").str("name").i64("methods").i64("calls").i64("time_nanos").i64("time_raw_nanos")
                .i64("event_drops").i64("depth_drops").i64("native_est_nanos").f64("java_energy_microjoules").f64("native_energy_microjoules");
        try (Table t = new Table(s, dir)) {
            for (Context c : contexts)
                for (Profile.ThreadRow r : c.profile().threads())
                    t.add(t.row(c).append("tid", r.tid()).append("name", r.name()).append("methods", r.methods()).append("calls", r.calls())
                            .append("time_nanos", r.timeNanos()).append("time_raw_nanos", r.timeRawNanos()).append("event_drops", r.eventDrops())
                            .append("depth_drops", r.depthDrops()).append("native_est_nanos", r.nativeEstNanos())
                            .append("java_energy_microjoules", r.javaEnergyMicrojoules())
                            .append("native_energy_microjoules", r.nativeEnergyMicrojoules()));
            return t.rows;
        }
    }

    /** The report's rows of each process: methods, or loops (which add {@code iterations}). */
    private static long methods(List<Context> contexts, Path dir, boolean loops) throws IOException {
        Schema s = new Schema(loops ? "loops" : "methods").str(loops ? "loop" : "method").str("resolution").i64("calls")
                .i64("count_only_calls").i64("incl_nanos").i64("excl_nanos").i64("incl_raw_nanos").i64("excl_raw_nanos").i64("min_nanos")
                .i64("max_nanos").i64("p50_nanos").i64("p99_nanos");
        if (loops) s.i64("iterations");
        s.i64("throws").i64("clamped").f64("probe_share").f64("energy_microjoules").f64("energy_incl_microjoules")
                .i64("native_instructions").i64("native_cycles").i64("native_est_nanos").i64("native_energy_picojoules")
                .i64("native_instructions_incl").i64("native_cycles_incl").i64("native_est_nanos_incl").i64("native_energy_picojoules_incl");
        String kind = loops ? "loop" : "method";
        try (Table t = new Table(s, dir)) {
            for (Context c : contexts)
                for (MethodRow r : c.profile().methods()) {
                    if (!r.kind().equals(kind)) continue;
                    Row g = t.row(c).append(kind, r.method()).append("resolution", r.resolution()).append("calls", r.calls())
                            .append("count_only_calls", r.countOnlyCalls()).append("incl_nanos", r.inclNanos()).append("excl_nanos", r.exclNanos())
                            .append("incl_raw_nanos", r.inclRawNanos()).append("excl_raw_nanos", r.exclRawNanos()).append("min_nanos", r.minNanos())
                            .append("max_nanos", r.maxNanos()).append("p50_nanos", r.p50Nanos()).append("p99_nanos", r.p99Nanos());
                    if (loops) g.append("iterations", r.iterations());
                    var n = r.nativeCost();
                    t.add(g.append("throws", r.throwsCount()).append("clamped", r.clamped()).append("probe_share", r.probeShare())
                            .append("energy_microjoules", r.energyMicrojoules()).append("energy_incl_microjoules", r.energyInclMicrojoules())
                            .append("native_instructions", n.instructions()).append("native_cycles", n.cycles())
                            .append("native_est_nanos", n.estNanos()).append("native_energy_picojoules", n.energyPicojoules())
                            .append("native_instructions_incl", n.instructionsIncl()).append("native_cycles_incl", n.cyclesIncl())
                            .append("native_est_nanos_incl", n.estNanosIncl()).append("native_energy_picojoules_incl", n.energyPicojoulesIncl()));
                }
            return t.rows;
        }
    }

    private static long nativeEpochs(Store store, List<Context> contexts, Path dir) throws IOException {
        Schema s = new Schema("native_epochs").i64("epoch_id").i64("tid").i32("probe_id").str("method").str("symbol").i64("blocks")
                .i64("instructions").i64("cycles").i64("est_nanos").i64("energy_picojoules").i64("wall_nanos");
        try (Table t = new Table(s, dir)) {
            for (Context c : contexts)
                for (NativeEpoch e : store.nativeEpochs(c.process.id()))
                    t.add(t.row(c).append("epoch_id", e.epochId()).append("tid", e.tid()).append("probe_id", e.probeId())
                            .append("method", c.name(e.probeId())).append("symbol", e.symbol()).append("blocks", e.blocks())
                            .append("instructions", e.instructions()).append("cycles", e.cycles()).append("est_nanos", e.estNanos())
                            .append("energy_picojoules", e.energyPicojoules()).append("wall_nanos", e.wallNanos()));
            return t.rows;
        }
    }

    /** One row per (block, native method whose calls ran it): what a query groups by. */
    private static long nativeBlocks(Store store, List<Context> contexts, Path dir) throws IOException {
        Schema s = new Schema("native_blocks").str("library").i32("block_index").i64("address").str("function").i32("size_bytes")
                .i64("instructions").str("categories").str("disassembly").i32("probe_id").str("method").i64("executions");
        try (Table t = new Table(s, dir)) {
            for (Context c : contexts)
                for (NativeBlock b : store.nativeBlocks(c.process.id()))
                    for (Map.Entry<Integer, Long> e : new TreeMap<>(b.executionsByProbe()).entrySet())
                        t.add(t.row(c).append("library", b.library()).append("block_index", b.index()).append("address", b.address())
                                .append("function", b.function() == null ? "" : b.function()).append("size_bytes", b.size())
                                .append("instructions", b.instructions()).append("categories", b.categories() == null ? "" : b.categories())
                                .append("disassembly", b.disassembly() == null ? "" : b.disassembly()).append("probe_id", e.getKey())
                                .append("method", e.getKey() < 0 ? "JNI_OnLoad" : c.name(e.getKey())).append("executions", e.getValue()));
            return t.rows;
        }
    }

    /** Every call and loop activation, streamed out of the store thread after thread. */
    private static long events(Store store, List<Context> contexts, Path dir) throws IOException {
        Schema s = new Schema("events").i64("tid").str("thread").i32("probe_id").str("method").str("kind").i64("start_nanos")
                .i64("duration_nanos").i32("depth").bool("thrown").bool("open_at_end").i64("iterations").f64("self_energy_microjoules");
        s.runFields += 2; // the events come thread after thread: tid and thread change once per thread
        s.eventPages = true;
        try (Table t = new Table(s, dir)) {
            EventPages pages = t.eventPages();
            for (Context c : contexts) {
                if (!c.process.mode().equals("events") && store.eventChunkCount(c.process.id()) == 0) continue;
                CallStream stream = CallStream.of(store, c.process, null);
                stream.replay(new CallStream.Visitor() {
                    @Override
                    public void thread(CallStream.ThreadRef th) {
                        // the thread's rows share its run fields: set once, then each call's own columns go to the event pages
                        t.runUnchecked(t.row(c).append("tid", th.tid()).append("thread", Binary.fromString(th.name())));
                        pages.names(id -> Binary.fromString(stream.name(id)));
                    }

                    @Override
                    public void open(int probeId, boolean loop, long startNanos, int depth) {}

                    @Override
                    public void close(Timeline.Call call, double selfEnergyMicrojoules, NativeEpoch epoch) {
                        try {
                            pages.add(call.probeId(), call.loop(), call.startNanos(), call.endNanos() - call.startNanos(), call.depth(),
                                    call.thrown(), call.closedAtEnd(), call.iterations(), selfEnergyMicrojoules);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        t.endRowUnchecked();
                    }
                });
            }
            return t.rows;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    // ------------------------------------------------------------------ rows and files

    /** A process and what each of its rows starts with. */
    private static final class Context {
        final Store store;
        final ProcessInfo process;
        final String sessionId, sessionFile, abi, cpuProfile, powerProfile;
        final Map<String, String> labels;
        /** The session columns' strings as Parquet writes them, encoded once. */
        final Binaries b;
        private Profile profile;
        private Map<Integer, String> names;

        Context(Store store, ProcessInfo process, String sessionId, String sessionFile, Map<String, String> labels) {
            this.store = store;
            this.process = process;
            this.sessionId = sessionId;
            this.sessionFile = sessionFile;
            this.labels = labels;
            Map<String, String> info = store.nativeInfo(process.id());
            // a hybrid run names its ABI (or each library's architecture) and its CPU profile(s)
            Set<String> abis = new LinkedHashSet<>(), cpus = new LinkedHashSet<>();
            if (info.get("abi") != null) abis.add(info.get("abi"));
            new TreeMap<>(info).forEach((k, v) -> {
                if (abis.isEmpty() && k.matches("library\\.\\d+\\.arch")) abis.add(v);
                if (k.startsWith("cpu") && k.endsWith(".profile")) cpus.add(v);
            });
            this.abi = abis.isEmpty() ? null : String.join(",", abis);
            this.cpuProfile = cpus.isEmpty() ? null : String.join(",", cpus);
            this.powerProfile = store.info("power.description");
            this.b = new Binaries(this);
        }

        Profile profile() {
            if (profile == null) profile = Profile.load(store, process.id());
            return profile;
        }

        String name(int probeId) {
            if (names == null) {
                // as every other output names them (Java signatures, loops by line), the profile's too
                names = new java.util.HashMap<>(org.hyprof.config.MethodNames.names(store.probes(process.id()),
                        org.hyprof.config.MethodNames.Style.JAVA));
            }
            String n = names.get(probeId);
            return n != null ? n : "probe#" + probeId;
        }
    }

    /** A context's strings, UTF-8 encoded once for all its rows. */
    private static final class Binaries {
        final Binary sessionId, sessionFile, process, vm, abi, cpuProfile, powerProfile;
        final Binary[] labels;

        Binaries(Context c) {
            sessionId = Binary.fromString(c.sessionId);
            sessionFile = Binary.fromString(c.sessionFile);
            process = Binary.fromString(c.process.name());
            vm = Binary.fromString(c.process.vm() == null ? "" : c.process.vm());
            abi = c.abi == null ? null : Binary.fromString(c.abi);
            cpuProfile = c.cpuProfile == null ? null : Binary.fromString(c.cpuProfile);
            powerProfile = c.powerProfile == null ? null : Binary.fromString(c.powerProfile);
            labels = new Binary[c.labels.size() * 2];
            int k = 0;
            for (Map.Entry<String, String> e : c.labels.entrySet()) {
                labels[k++] = Binary.fromString(e.getKey());
                labels[k++] = Binary.fromString(e.getValue());
            }
        }
    }

    /** A table's columns: the session columns, then its own. */
    private static final class Schema {
        final String table;
        final Types.MessageTypeBuilder b = Types.buildMessage();
        /** Leading fields whose value stays the same over many rows (see {@link Table}): the session columns. */
        int runFields = SESSION_COLUMNS.size();
        /** The other fields are the events' own, written by {@link EventPages} rather than parquet-java's column writers. */
        boolean eventPages;

        Schema(String table) {
            this.table = table;
            i32("schema_version").str("session_id").str("session_file").i64("process_id").i64("pid").str("process").str("vm")
                    .optStr("abi").optStr("cpu_profile").optStr("power_profile");
            b.optionalGroup().as(LogicalTypeAnnotation.mapType())
                    .repeatedGroup()
                    .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("key")
                    .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("value")
                    .named("key_value")
                    .named("labels");
        }

        Schema i32(String n) {
            b.required(PrimitiveTypeName.INT32).named(n);
            return this;
        }

        Schema i64(String n) {
            b.required(PrimitiveTypeName.INT64).named(n);
            return this;
        }

        Schema optI64(String n) {
            b.optional(PrimitiveTypeName.INT64).named(n);
            return this;
        }

        Schema f64(String n) {
            b.required(PrimitiveTypeName.DOUBLE).named(n);
            return this;
        }

        Schema bool(String n) {
            b.required(PrimitiveTypeName.BOOLEAN).named(n);
            return this;
        }

        Schema str(String n) {
            b.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(n);
            return this;
        }

        Schema optStr(String n) {
            b.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(n);
            return this;
        }
    }

    /**
     * One row being made: a value slot per column, reused from row to row (no object per row
     * but the strings' bytes), handed to the {@link Table}'s column writers in schema order.
     */
    static final class Row {
        final MessageType schema;
        final String[] names;
        final boolean[] required;
        private int next; // the slot after the last one set: appends come in schema order, checked by name
        final PrimitiveTypeName[] types; // null: the labels map
        /** Each field's first leaf column (the labels map has two: key and value). */
        final int[] leaf;
        final long[] longs;
        final double[] doubles;
        final Binary[] binaries;
        final boolean[] present;
        Binary[] labels = new Binary[0]; // key, value, key, value, …

        Row(MessageType schema) {
            this.schema = schema;
            int n = schema.getFieldCount();
            types = new PrimitiveTypeName[n];
            names = new String[n];
            required = new boolean[n];
            leaf = new int[n];
            for (int i = 0, leaves = 0; i < n; i++) {
                var f = schema.getType(i);
                leaf[i] = leaves;
                leaves += f.isPrimitive() ? 1 : 2;
                names[i] = f.getName();
                required[i] = f.isRepetition(org.apache.parquet.schema.Type.Repetition.REQUIRED);
                types[i] = f.isPrimitive() ? f.asPrimitiveType().getPrimitiveTypeName() : null;
            }
            longs = new long[n];
            doubles = new double[n];
            binaries = new Binary[n];
            present = new boolean[n];
        }

        /** Whether fields {@code [0, n)} hold what they hold in {@code o} (strings: the same instances, as a context's are). */
        boolean sameAs(Row o, int n) {
            if (labels != o.labels) return false;
            for (int i = 0; i < n; i++) {
                if (present[i] != o.present[i] || longs[i] != o.longs[i] || binaries[i] != o.binaries[i]
                        || Double.doubleToRawLongBits(doubles[i]) != Double.doubleToRawLongBits(o.doubles[i])) return false;
            }
            return true;
        }

        /** Copies fields {@code [0, n)} and the labels into {@code o}. */
        void copyTo(Row o, int n) {
            System.arraycopy(present, 0, o.present, 0, n);
            System.arraycopy(longs, 0, o.longs, 0, n);
            System.arraycopy(doubles, 0, o.doubles, 0, n);
            System.arraycopy(binaries, 0, o.binaries, 0, n);
            o.labels = labels;
        }

        /** Empties the row. */
        void clear() {
            java.util.Arrays.fill(present, false);
            next = 0;
        }

        private int slot(String name) {
            // the next column in schema order, as the tables append them; otherwise looked up
            int i = next < names.length && names[next].equals(name) ? next : schema.getFieldIndex(name);
            present[i] = true;
            next = i + 1;
            return i;
        }

        Row append(String name, long v) {
            longs[slot(name)] = v;
            return this;
        }

        Row append(String name, int v) {
            longs[slot(name)] = v;
            return this;
        }

        Row append(String name, double v) {
            doubles[slot(name)] = v;
            return this;
        }

        Row append(String name, boolean v) {
            longs[slot(name)] = v ? 1 : 0;
            return this;
        }

        Row append(String name, String v) {
            binaries[slot(name)] = Binary.fromString(v);
            return this;
        }

        Row append(String name, Binary v) {
            binaries[slot(name)] = v;
            return this;
        }

        /** Hands fields {@code from} on to the table's column writers (one per leaf column, in schema order). */
        void writeTo(ColumnWriter[] w, int from) {
            for (int i = from; i < types.length; i++) {
                ColumnWriter c = w[leaf[i]];
                if (types[i] == null) { // the labels map: key and value leaves; an empty map is present with no entries
                    ColumnWriter v = w[leaf[i] + 1];
                    if (labels.length == 0) {
                        c.writeNull(0, 1);
                        v.writeNull(0, 1);
                    }
                    for (int k = 0; k < labels.length; k += 2) {
                        int repetition = k == 0 ? 0 : 1;
                        c.write(labels[k], repetition, 2);
                        v.write(labels[k + 1], repetition, 3);
                    }
                    continue;
                }
                if (!present[i]) {
                    if (required[i]) throw new IllegalStateException(schema.getName() + "." + names[i] + ": no value");
                    c.writeNull(0, 0);
                    continue;
                }
                int definition = required[i] ? 0 : 1;
                switch (types[i]) {
                    case INT32 -> c.write((int) longs[i], 0, definition);
                    case INT64 -> c.write(longs[i], 0, definition);
                    case DOUBLE -> c.write(doubles[i], 0, definition);
                    case BOOLEAN -> c.write(longs[i] != 0, 0, definition);
                    default -> c.write(binaries[i], 0, definition);
                }
            }
        }
    }

    /**
     * One table's file being written: parquet-java's column writers driven directly, a row at a
     * time (no record consumer, no {@code WriteSupport}: those cost more than the values), or for
     * the events' own columns {@link EventPages}; pages compressed by {@link ZstdPages}, a row
     * group cut every {@link #ROW_GROUP_BYTES} of buffered pages, as {@code ParquetWriter} does.
     *
     * <p>The leading {@link Schema#runFields} fields (the session columns; an event's thread) hold
     * one value over long runs of rows. A row group is cut where one of them changes, so within a
     * group each is a single value: written once per group as a one-entry dictionary and a page
     * of one run ({@link RunPages}), instead of a dictionary lookup and statistics update per row
     * in parquet-java's writer — most of the columns, most of the time.
     */
    private static final class Table implements AutoCloseable {
        final MessageType schema;
        final Row row;
        private final int runFields;
        /** The run fields' values in the current row group (from its first row). */
        private final Row group;
        /** The other fields: what the column writers get. */
        private final MessageType perRow;
        private final ParquetProperties props;
        private final ParquetFileWriter file;
        private final ZstdPages compressor = new ZstdPages();
        private final Map<String, String> metadata;
        private ColumnChunkPageWriteStore pages;
        private ColumnWriteStore columns;
        /** By leaf column of {@link #schema}; null for the run fields' leaves (and for the events' own columns). */
        private final ColumnWriter[] writers;
        /** The events' own columns, written by hand; null for the other tables (parquet-java's column writers). */
        private final EventPages eventPages;
        private long groupRows, nextSizeCheck;
        long rows;

        Table(Schema s, Path dir) throws IOException {
            schema = s.b.named(s.table);
            row = new Row(schema);
            group = new Row(schema);
            runFields = s.runFields;
            for (int i = 0; i < runFields; i++)
                if (row.types[i] == PrimitiveTypeName.BOOLEAN) throw new IllegalStateException(s.table + "." + row.names[i] + ": a boolean has no dictionary");
            perRow = new MessageType(s.table, schema.getFields().subList(runFields, schema.getFieldCount()));
            metadata = Map.of("hyprof.schema_version", Integer.toString(SCHEMA_VERSION), "hyprof.table", s.table);
            props = ParquetProperties.builder()
                    .withPageSize(PAGE_BYTES)
                    .withPageRowCountLimit(PAGE_ROWS)
                    .withDictionaryEncoding(true)
                    .withSizeStatisticsEnabled(false)
                    .build();
            file = new ParquetFileWriter(new LocalOutputFile(dir.resolve(s.table + ".parquet")), schema, ParquetFileWriter.Mode.CREATE,
                    ROW_GROUP_BYTES, 0, null, props);
            file.start();
            writers = new ColumnWriter[schema.getColumns().size()];
            List<ColumnDescriptor> leaves = schema.getColumns();
            eventPages = s.eventPages ? new EventPages(leaves.subList(row.leaf[runFields], leaves.size()), PAGE_ROWS) : null;
            startGroup();
        }

        private void startGroup() {
            pages = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(), props.getColumnIndexTruncateLength(),
                    props.getPageWriteChecksumEnabled());
            if (eventPages != null) {
                eventPages.startGroup(pages);
            } else {
                columns = props.newColumnWriteStore(perRow, pages, pages);
                List<ColumnDescriptor> leaves = schema.getColumns();
                for (int i = row.leaf[runFields]; i < writers.length; i++) writers[i] = columns.getColumnWriter(leaves.get(i));
            }
            groupRows = 0;
            nextSizeCheck = 1_000;
        }

        /** Writes the row group buffered so far (if any) to the file. */
        private void endGroup() throws IOException {
            if (groupRows > 0) {
                RunPages.write(group, runFields, groupRows, schema.getColumns(), pages);
                file.startBlock(groupRows);
                if (eventPages != null) eventPages.endGroup();
                else columns.flush();
                pages.flushToFileWriter(file);
                file.endBlock();
            }
            if (columns != null) columns.close();
            pages.close();
        }

        /** The (reused) row, emptied, with the session columns filled in. */
        Row row(Context c) {
            row.clear();
            row.append("schema_version", SCHEMA_VERSION).append("session_id", c.b.sessionId).append("session_file", c.b.sessionFile)
                    .append("process_id", c.process.id()).append("pid", c.process.pid()).append("process", c.b.process).append("vm", c.b.vm);
            if (c.b.abi != null) row.append("abi", c.b.abi);
            if (c.b.cpuProfile != null) row.append("cpu_profile", c.b.cpuProfile);
            if (c.b.powerProfile != null) row.append("power_profile", c.b.powerProfile);
            row.labels = c.b.labels;
            return row;
        }

        void add(Row r) throws IOException {
            run(r);
            r.writeTo(writers, runFields);
            endRow();
        }

        /**
         * The rows from here on have {@code r}'s run fields (a new row group if they differ from
         * the current group's); their other fields go to {@link #eventPages()}, each row ended by
         * {@link #endRow}.
         */
        void run(Row r) throws IOException {
            if (groupRows > 0 && !r.sameAs(group, runFields)) {
                endGroup();
                startGroup();
            }
            if (groupRows == 0) r.copyTo(group, runFields);
        }

        void runUnchecked(Row r) {
            try {
                run(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The events' own columns (each row's values go there before {@link #endRow}); null for the other tables. */
        EventPages eventPages() {
            return eventPages;
        }

        /** One row written: the group is cut when its pages have grown to {@link #ROW_GROUP_BYTES} (the run fields carry over). */
        void endRow() throws IOException {
            if (eventPages == null) columns.endRecord();
            rows++;
            if (++groupRows >= nextSizeCheck) {
                // the buffered size is a sum over every column: looked at now and then, as ParquetWriter does
                long bytes = eventPages != null ? eventPages.bufferedBytes() : columns.getBufferedSize();
                if (bytes >= ROW_GROUP_BYTES) {
                    endGroup();
                    startGroup();
                } else {
                    nextSizeCheck = groupRows + Math.max(1_000, (ROW_GROUP_BYTES - bytes) / Math.max(1, bytes / groupRows) / 2);
                }
            }
        }

        void endRowUnchecked() {
            try {
                endRow();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                endGroup();
                file.end(metadata);
            } finally {
                compressor.release();
            }
        }
    }

    /**
     * The pages of fields that hold one value over a whole row group: per leaf column, a
     * dictionary of that value (the labels map: of its keys, of its values) and one data page
     * whose levels and dictionary ids are single runs (RLE: a count and the value; ids of bit
     * width 0, as parquet-java writes a one-entry dictionary), with the page's statistics. Data
     * pages of format v1, as the other columns' (levels prefixed with their length).
     */
    private static final class RunPages {
        private RunPages() {}

        static void write(Row g, int fields, long groupRows, List<ColumnDescriptor> leaves, ColumnChunkPageWriteStore pages)
                throws IOException {
            int rows = Math.toIntExact(groupRows);
            for (int i = 0; i < fields; i++) {
                ColumnDescriptor d = leaves.get(g.leaf[i]);
                if (g.types[i] == null) {
                    labels(g.labels, rows, d, leaves.get(g.leaf[i] + 1), pages);
                    continue;
                }
                Statistics<?> stats = Statistics.createStats(d.getPrimitiveType());
                ByteArrayOutputStream page = new ByteArrayOutputStream();
                int maxDefinition = d.getMaxDefinitionLevel();
                if (!g.present[i]) { // an optional field without a value: nulls only
                    levels(page, rows, 0, maxDefinition);
                    stats.incrementNumNulls(rows);
                    pages.getPageWriter(d).writePage(BytesInput.from(page.toByteArray()), rows, rows, stats,
                            Encoding.BIT_PACKED, Encoding.RLE, Encoding.PLAIN);
                    continue;
                }
                if (maxDefinition > 0) levels(page, rows, maxDefinition, maxDefinition);
                ByteArrayOutputStream dictionary = new ByteArrayOutputStream();
                switch (g.types[i]) {
                    case INT32 -> {
                        stats.updateStats((int) g.longs[i]);
                        littleEndian(dictionary, g.longs[i], 4);
                    }
                    case INT64 -> {
                        stats.updateStats(g.longs[i]);
                        littleEndian(dictionary, g.longs[i], 8);
                    }
                    case DOUBLE -> {
                        stats.updateStats(g.doubles[i]);
                        littleEndian(dictionary, Double.doubleToLongBits(g.doubles[i]), 8);
                    }
                    default -> {
                        stats.updateStats(g.binaries[i]);
                        plain(dictionary, g.binaries[i]);
                    }
                }
                page.write(0); // the ids' bit width: one entry
                run(page, rows, 0, 0);
                pages.getPageWriter(d).writePage(BytesInput.from(page.toByteArray()), rows, rows, stats,
                        Encoding.BIT_PACKED, maxDefinition > 0 ? Encoding.RLE : Encoding.BIT_PACKED, Encoding.PLAIN_DICTIONARY);
                pages.getPageWriter(d).writeDictionaryPage(new DictionaryPage(BytesInput.from(dictionary.toByteArray()), 1, Encoding.PLAIN_DICTIONARY));
            }
        }

        /** The labels map's two leaves: every row has the same entries (key, value, key, value, …; none: an empty map). */
        private static void labels(Binary[] labels, int rows, ColumnDescriptor key, ColumnDescriptor value, ColumnChunkPageWriteStore pages)
                throws IOException {
            int entries = labels.length / 2;
            for (int leaf = 0; leaf < 2; leaf++) {
                ColumnDescriptor d = leaf == 0 ? key : value;
                Statistics<?> stats = Statistics.createStats(d.getPrimitiveType());
                ByteArrayOutputStream page = new ByteArrayOutputStream();
                int maxDefinition = d.getMaxDefinitionLevel();
                if (entries == 0) { // the map is there, empty: one null per row at the map's level
                    levels(page, rows, 0, d.getMaxRepetitionLevel());
                    levels(page, rows, 1, maxDefinition);
                    stats.incrementNumNulls(rows);
                    pages.getPageWriter(d).writePage(BytesInput.from(page.toByteArray()), rows, rows, stats,
                            Encoding.RLE, Encoding.RLE, Encoding.PLAIN);
                    continue;
                }
                // a dictionary of the distinct strings; each row repeats the same ids
                Map<Binary, Integer> ids = new LinkedHashMap<>();
                int[] idOf = new int[entries];
                for (int k = 0; k < entries; k++) {
                    Binary v = labels[2 * k + leaf];
                    idOf[k] = ids.computeIfAbsent(v, x -> ids.size());
                    stats.updateStats(v);
                }
                int values = Math.multiplyExact(rows, entries);
                if (entries == 1) {
                    levels(page, values, 0, d.getMaxRepetitionLevel());
                } else { // 0 at each row's first entry, 1 at the others
                    RunLengthBitPackingHybridEncoder e = encoder(1, values);
                    for (int r = 0; r < rows; r++)
                        for (int k = 0; k < entries; k++) e.writeInt(k == 0 ? 0 : 1);
                    BytesInput b = e.toBytes();
                    littleEndian(page, b.size(), 4);
                    b.writeAllTo(page);
                }
                levels(page, values, maxDefinition, maxDefinition);
                int width = BytesUtils.getWidthFromMaxInt(ids.size() - 1);
                page.write(width);
                if (ids.size() == 1) {
                    run(page, values, 0, 0);
                } else {
                    RunLengthBitPackingHybridEncoder e = encoder(width, values);
                    for (int r = 0; r < rows; r++)
                        for (int k = 0; k < entries; k++) e.writeInt(idOf[k]);
                    e.toBytes().writeAllTo(page);
                }
                ByteArrayOutputStream dictionary = new ByteArrayOutputStream();
                for (Binary v : ids.keySet()) plain(dictionary, v);
                pages.getPageWriter(d).writePage(BytesInput.from(page.toByteArray()), values, rows, stats,
                        Encoding.RLE, Encoding.RLE, Encoding.PLAIN_DICTIONARY);
                pages.getPageWriter(d).writeDictionaryPage(new DictionaryPage(BytesInput.from(dictionary.toByteArray()), ids.size(),
                        Encoding.PLAIN_DICTIONARY));
            }
        }

        private static RunLengthBitPackingHybridEncoder encoder(int width, int values) {
            return new RunLengthBitPackingHybridEncoder(width, 64, Math.max(64, values / 8 * width + 64), HeapByteBufferAllocator.getInstance());
        }

        /** {@code count} levels all {@code level} (a column whose max level is 0 has none): their length, then one run. */
        private static void levels(ByteArrayOutputStream out, int count, int level, int maxLevel) {
            if (maxLevel == 0) return;
            ByteArrayOutputStream r = new ByteArrayOutputStream();
            run(r, count, level, BytesUtils.getWidthFromMaxInt(maxLevel));
            littleEndian(out, r.size(), 4);
            out.writeBytes(r.toByteArray());
        }

        /** One RLE run of the hybrid encoding: {@code count << 1} as a varint, then the value in whole bytes of its bit width. */
        private static void run(ByteArrayOutputStream out, int count, int value, int bitWidth) {
            long header = (long) count << 1;
            while ((header & ~0x7FL) != 0) {
                out.write((int) (header & 0x7F) | 0x80);
                header >>>= 7;
            }
            out.write((int) header);
            littleEndian(out, value, (bitWidth + 7) / 8);
        }

        private static void littleEndian(ByteArrayOutputStream out, long v, int bytes) {
            for (int i = 0; i < bytes; i++) out.write((int) (v >>> (8 * i)));
        }

        /** A string in PLAIN encoding: its length (4 bytes, little-endian), then its bytes. */
        private static void plain(ByteArrayOutputStream out, Binary v) {
            littleEndian(out, v.length(), 4);
            out.writeBytes(v.getBytes());
        }
    }

    /**
     * ZSTD pages through zstd-jni's one-shot API with a context kept for the file (level
     * {@link #ZSTD_LEVEL}): standard ZSTD frames, as parquet-java's own codec writes them, without
     * Hadoop's codec streams around each page. Both buffers are reused from page to page: the page
     * writer copies the compressed bytes before the next page comes (no page-sized allocation per
     * page and column).
     */
    private static final class ZstdPages implements CompressionCodecFactory.BytesInputCompressor {
        private final ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(ZSTD_LEVEL);
        private final Bytes in = new Bytes();
        private byte[] out = new byte[1 << 16];

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            in.reset();
            bytes.writeAllTo(in);
            int size = in.size();
            int bound = Math.toIntExact(Zstd.compressBound(size));
            if (out.length < bound) out = new byte[Math.max(bound, out.length * 2)];
            return BytesInput.from(out, 0, ctx.compressByteArray(out, 0, out.length, in.array(), 0, size));
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
            ctx.close();
        }
    }

    /** A byte buffer reused from page to page, its array handed to the compressor as it is. */
    private static final class Bytes extends ByteArrayOutputStream {
        byte[] array() {
            return buf;
        }
    }

    /** Moves the new session directory into place; an older export of the same session is removed once the new one is there. */
    private static void replace(Path tmp, Path target) throws IOException {
        Path old = null;
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            old = Files.createTempDirectory(target.getParent(), "." + target.getFileName() + "-old-");
            Files.move(target, old.resolve("d"), StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        if (old != null) deleteTree(old);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    // ------------------------------------------------------------------ zstd-jni's native library

    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");

    /**
     * Points zstd-jni (the ZSTD codec) at a directory of this user's before it extracts and loads
     * its native library: by default it writes it into {@code java.io.tmpdir}, shared on most
     * machines, and a library loaded from where another user can write runs that user's code
     * here. zstd-jni reads the system property {@code ZstdTempFolder} when it loads; a value the
     * user set is kept.
     */
    private static void usePrivateNativeDirectory() throws IOException {
        if (System.getProperty("ZstdTempFolder") == null)
            System.setProperty("ZstdTempFolder", privateNativeDirectory().toString());
    }

    /**
     * {@code $XDG_CACHE_HOME/hyprof/native}, else {@code ~/.cache/hyprof/native}: created with mode
     * 0700; an existing one must be a real directory (not a symbolic link) owned by this user, and
     * is made private if others could write it. The same rule bb-tracer's library cache follows.
     */
    static Path privateNativeDirectory() throws IOException {
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        Path base = xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute() ? Path.of(xdg, "hyprof")
                : Path.of(home == null || home.isEmpty() || home.equals("?") ? System.getProperty("java.io.tmpdir") : home, ".cache", "hyprof");
        Files.createDirectories(base.getParent());
        return privateDirectory(privateDirectory(base).resolve("native"));
    }

    static Path privateDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE));
            Files.setPosixFilePermissions(dir, PRIVATE);
        } catch (FileAlreadyExistsException e) {
            // checked below
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink() || !a.isDirectory())
            throw new IOException(dir + " is " + (a.isSymbolicLink() ? "a symbolic link" : "not a directory")
                    + "; hyprof loads native libraries only from a directory of its own (remove it, or set XDG_CACHE_HOME)");
        String me = System.getProperty("user.name");
        if (!a.owner().getName().equals(me))
            throw new IOException(dir + " belongs to " + a.owner().getName() + ", not to " + me
                    + "; hyprof loads native libraries only from a directory only you can write (remove it, or set XDG_CACHE_HOME)");
        if (a.permissions().stream().anyMatch(EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE)::contains))
            Files.setPosixFilePermissions(dir, PRIVATE);
        return dir;
    }
}
