package org.hyprof.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The probe manifest: what every probe id means, and which methods were skipped and why.
 *
 * <p>Text format (UTF-8, tab-separated, one record per line; lines starting with {@code #} are
 * comments):
 * <pre>
 * # hyprof-manifest 1
 * probe  ID  KIND  RESOLUTION  CLASS  METHOD  DESCRIPTOR  OWNER  LOOP_INDEX  LINE  SOURCE
 * skip   CLASS  METHOD  DESCRIPTOR  REASON
 * </pre>
 * KIND is {@code method} or {@code loop}; OWNER, LOOP_INDEX and LINE are -1 when not applicable.
 * The runtime reads the first four columns of probe lines (see {@code org.hyprof.runtime}); the
 * session keeps the text so a session file is self-contained.
 */
public final class Manifest {
    public static final String HEADER = "# hyprof-manifest 1";

    private final List<ProbeInfo> probes = new ArrayList<>();
    private final List<SkippedMethod> skipped = new ArrayList<>();
    private final List<Piece> pieces = new ArrayList<>();

    /**
     * A piece instrumented on its own (a jar, DEX file or APK), as the runtime placed it: its
     * probes, numbered from 1 in the piece, have ids {@code base + 1 … base + probes} here.
     */
    public record Piece(String key, int base, int probes) {}

    /** The pieces these probes came from (none for one instrumented output or the agent). */
    public List<Piece> pieces() {
        return Collections.unmodifiableList(pieces);
    }

    public List<ProbeInfo> probes() {
        return Collections.unmodifiableList(probes);
    }

    public List<SkippedMethod> skipped() {
        return Collections.unmodifiableList(skipped);
    }

    public void add(ProbeInfo p) {
        probes.add(p);
    }

    public void addSkipped(SkippedMethod s) {
        skipped.add(s);
    }

    public void addAll(Manifest other) {
        probes.addAll(other.probes);
        skipped.addAll(other.skipped);
        pieces.addAll(other.pieces);
    }

    /** Highest probe id + 1 (0 when empty). */
    public int idLimit() {
        int m = 0;
        for (ProbeInfo p : probes) m = Math.max(m, p.id() + 1);
        return m;
    }

    /** The whole manifest as text, header first. */
    public String toText() {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        appendLines(b, probes, skipped);
        return b.toString();
    }

    /** Probe and skip lines only (no header): what is appended as classes load. */
    public static String lines(List<ProbeInfo> probes, List<SkippedMethod> skipped) {
        StringBuilder b = new StringBuilder();
        appendLines(b, probes, skipped);
        return b.toString();
    }

    private static void appendLines(StringBuilder b, List<ProbeInfo> probes, List<SkippedMethod> skipped) {
        for (ProbeInfo p : probes) {
            b.append("probe\t").append(p.id()).append('\t').append(p.kindLabel()).append('\t')
                    .append(p.resolution().label()).append('\t').append(p.className()).append('\t')
                    .append(p.methodName()).append('\t').append(p.descriptor()).append('\t')
                    .append(p.ownerId()).append('\t').append(p.loopIndex()).append('\t')
                    .append(p.line()).append('\t').append(clean(p.source())).append('\n');
        }
        for (SkippedMethod s : skipped) {
            b.append("skip\t").append(s.className()).append('\t').append(s.methodName()).append('\t')
                    .append(s.descriptor()).append('\t').append(clean(s.reason())).append('\n');
        }
    }

    private static String clean(String s) {
        return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    /** Parses manifest text; {@code name} names the input in error messages. */
    public static Manifest parse(String text, String name) {
        try {
            return read(new StringReader(text), name);
        } catch (IOException e) {
            throw new ConfigException(name + ": " + e.getMessage(), e);
        }
    }

    /** Reads manifest text (header optional, so appended fragments parse too). */
    public static Manifest read(Reader in, String name) throws IOException {
        Manifest m = new Manifest();
        BufferedReader r = new BufferedReader(in);
        int lineNo = 0;
        for (String line; (line = r.readLine()) != null; ) {
            lineNo++;
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split("\t", -1);
            try {
                if (f[0].equals("probe") && f.length >= 11) {
                    m.add(new ProbeInfo(Integer.parseInt(f[1]), f[2].equals("loop"), Resolution.parse(f[3]),
                            f[4], f[5], f[6], Integer.parseInt(f[7]), Integer.parseInt(f[8]),
                            Integer.parseInt(f[9]), f[10]));
                } else if (f[0].equals("skip") && f.length >= 5) {
                    m.addSkipped(new SkippedMethod(f[1], f[2], f[3], f[4]));
                } else if (f[0].equals("piece") && f.length >= 4) {
                    if (!f[1].matches("[0-9a-f]{1,64}")) throw new ConfigException("bad piece key");
                    int base = Integer.parseInt(f[2]), n = Integer.parseInt(f[3]);
                    if (base < 0 || n < 0) throw new ConfigException("bad piece ids");
                    m.pieces.add(new Piece(f[1], base, n));
                } else {
                    throw new ConfigException(name + ":" + lineNo + ": not a manifest line");
                }
            } catch (NumberFormatException e) {
                throw new ConfigException(name + ":" + lineNo + ": bad number in manifest line");
            } catch (ConfigException e) {
                if (e.getMessage().startsWith(name)) throw e;
                throw new ConfigException(name + ":" + lineNo + ": " + e.getMessage());
            }
        }
        return m;
    }
}
