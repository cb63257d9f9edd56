package org.hyprof.correlate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hyprof.runtime.chunk.NativeBlocksChunk;
import org.hyprof.store.NativeRunRecord;

/**
 * The stored runs of single native functions ({@code hyprof native … -o S.db}) as a table, CSV or
 * JSON ({@code hyprof report S.db --by native}). Time is the CPU profile's estimated device time.
 */
public final class NativeRunReport {
    /** CSV header; columns may be added at the end. */
    public static final String COLUMNS =
            "run,library,symbol,args,abi,cpu,engine,return,blocks,instructions,cycles,time_ns,energy_uj,emulated_ns,categories";

    private final List<NativeRunRecord> runs;

    public NativeRunReport(List<NativeRunRecord> runs) {
        this.runs = runs;
    }

    public void write(ReportWriter.Format format, PrintWriter out) {
        format.write(out, this::table, this::csv, this::json);
    }

    private void table(PrintWriter out) {
        if (runs.isEmpty()) {
            out.println("no native runs in this session (store one with: hyprof native LIB.so --call SYMBOL -o S.db)");
            return;
        }
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"run", "abi", "cpu", "engine", "return", "blocks", "instructions", "cycles", "time us", "energy uJ", "call"});
        for (NativeRunRecord r : runs)
            cells.add(new String[] {Long.toString(r.runId()), r.abi(), r.cpuProfile(), r.engine(), Long.toString(r.returnValue()),
                String.format(Locale.ROOT, "%,d", r.blocks()), String.format(Locale.ROOT, "%,d", r.instructions()),
                String.format(Locale.ROOT, "%,d", r.cycles()), String.format(Locale.ROOT, "%.3f", r.estNanos() / 1e3),
                String.format(Locale.ROOT, "%.3f", r.energyPicojoules() / 1e6), r.label()});
        ReportWriter.aligned(out, cells);
    }

    private void csv(PrintWriter out) {
        out.println(COLUMNS);
        for (NativeRunRecord r : runs) {
            StringBuilder cats = new StringBuilder();
            r.categories().forEach((k, v) -> cats.append(cats.length() == 0 ? "" : ";").append(k).append('=').append(v));
            out.println(String.join(",", Long.toString(r.runId()), quote(r.library()), quote(r.symbol()), quote(r.args()), r.abi(),
                    quote(r.cpuProfile()), r.engine(), Long.toString(r.returnValue()), Long.toString(r.blocks()),
                    Long.toString(r.instructions()), Long.toString(r.cycles()), Long.toString(r.estNanos()),
                    String.format(Locale.ROOT, "%.6f", r.energyPicojoules() / 1e6), Long.toString(r.emulatedNanos()), cats.toString()));
        }
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private void json(PrintWriter out) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode a = m.createArrayNode();
        for (NativeRunRecord r : runs) {
            ObjectNode o = a.addObject();
            o.put("run", r.runId()).put("library", r.library()).put("symbol", r.symbol()).put("args", r.args())
                    .put("abi", r.abi()).put("cpu", r.cpuProfile()).put("engine", r.engine()).put("return", r.returnValue())
                    .put("blocks", r.blocks()).put("instructions", r.instructions()).put("cycles", r.cycles())
                    .put("time_ns", r.estNanos()).put("energy_uj", r.energyPicojoules() / 1e6).put("emulated_ns", r.emulatedNanos());
            ObjectNode c = o.putObject("categories");
            r.categories().forEach(c::put);
            ArrayNode f = o.putArray("functions");
            for (NativeRunRecord.Function x : r.functions())
                f.addObject().put("function", x.name()).put("instructions", x.instructions()).put("cycles", x.cycles())
                        .put("time_ns", x.estNanos()).put("energy_uj", x.energyPicojoules() / 1e6);
            ArrayNode b = o.putArray("hot_blocks"); // every executed block, most cycles first
            for (NativeRunRecord.Block x : r.hotBlocks())
                b.addObject().put("block", NativeBlocksChunk.blockId(r.library(), x.address()))
                        .put("address", "0x" + Long.toHexString(x.address())).put("function", x.function())
                        .put("executions", x.executions()).put("instructions", x.instructions()).put("cycles", x.cycles())
                        .put("disassembly", x.disassembly());
        }
        try {
            out.println(m.writeValueAsString(a));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
