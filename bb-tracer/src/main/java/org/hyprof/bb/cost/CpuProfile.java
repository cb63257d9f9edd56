package org.hyprof.bb.cost;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.hyprof.bb.NativeException;

/**
 * A CPU's cost model, after the AndroProf thesis: clock frequency, processor power, a default CPI,
 * main-memory access rate and energy per access, and instruction categories — each a list of
 * mnemonics with, optionally, its own cycles per instruction and power. Categories without costs
 * still classify (for counts); their instructions cost the default CPI at the processor's power.
 *
 * <p>File format (Java properties, editable; shipped: {@code cortex-a8}, {@code cortex-a9},
 * {@code generic-aarch64}):
 * <pre>
 * name = cortex-a8
 * arch = arm                      # arm (ARM and Thumb) or arm64
 * frequency.mhz = 1000
 * power.mw = 890                  # processor power while running
 * cpi = 13.03                     # cycles per instruction not in a costed category
 * memory.access.rate = 0.01       # main-memory accesses per instruction
 * memory.access.energy.nj = 2.61  # energy per main-memory access
 * categories = branch-cond, branch, load, store, mul, div, fp, simd, alu
 * category.branch-cond.mnemonics = beq, bne, ..., cbz, cbnz   # '*' at the end: prefix
 * category.branch-cond.cycles = 3                              # optional
 * category.branch-cond.power.mw = 113                          # optional (default: power.mw)
 * </pre>
 * The first category whose list matches a mnemonic wins (in the order of {@code categories});
 * a mnemonic that matches none is counted as {@code other}.
 */
public final class CpuProfile {
    /** One category: its mnemonics and optional costs (cycles ≤ 0, power ≤ 0: not set). */
    public record Category(String name, List<String> mnemonics, double cycles, double powerMilliwatts) {
        boolean matches(String m) {
            for (String p : mnemonics) {
                if (p.endsWith("*") ? m.startsWith(p.substring(0, p.length() - 1)) : m.equals(p)) return true;
            }
            return false;
        }
    }

    public static final String OTHER = "other";
    public static final List<String> BUILT_IN = List.of("cortex-a8", "cortex-a9", "generic-aarch64");

    public final String name;
    public final String arch;
    public final double frequencyHz;
    public final double powerMilliwatts;
    public final double cpi;
    public final double memoryAccessRate;
    public final double memoryAccessEnergyNanojoules;
    public final List<Category> categories;
    private final Map<String, String> cache = new java.util.concurrent.ConcurrentHashMap<>();

    private CpuProfile(String name, String arch, double f, double p, double cpi, double rate, double nj, List<Category> cats) {
        this.name = name;
        this.arch = arch;
        this.frequencyHz = f;
        this.powerMilliwatts = p;
        this.cpi = cpi;
        this.memoryAccessRate = rate;
        this.memoryAccessEnergyNanojoules = nj;
        this.categories = Collections.unmodifiableList(cats);
    }

    /** A built-in profile by name, or a profile file. */
    public static CpuProfile load(String nameOrPath) {
        if (BUILT_IN.contains(nameOrPath)) {
            try (InputStream in = CpuProfile.class.getResourceAsStream(nameOrPath + ".properties")) {
                return parse(new java.io.InputStreamReader(in, StandardCharsets.UTF_8), nameOrPath);
            } catch (IOException e) {
                throw new NativeException("cannot read built-in CPU profile " + nameOrPath);
            }
        }
        Path p = Path.of(nameOrPath);
        try (Reader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            return parse(r, p.toString());
        } catch (NoSuchFileException e) {
            throw new NativeException(nameOrPath + ": no such CPU profile (built-in: " + String.join(", ", BUILT_IN) + ")");
        } catch (IOException e) {
            throw new NativeException(nameOrPath + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** The default profile for an instruction set. */
    public static CpuProfile forArch(boolean arm64) {
        return load(arm64 ? "generic-aarch64" : "cortex-a9");
    }

    static CpuProfile parse(Reader in, String where) throws IOException {
        Properties p = new Properties();
        p.load(in);
        String name = req(p, "name", where);
        String arch = req(p, "arch", where);
        if (!arch.equals("arm") && !arch.equals("arm64")) throw new NativeException(where + ": arch must be arm or arm64, not '" + arch + "'");
        double f = num(p, "frequency.mhz", where, true) * 1e6;
        double power = num(p, "power.mw", where, true);
        double cpi = num(p, "cpi", where, true);
        double rate = p.containsKey("memory.access.rate") ? num(p, "memory.access.rate", where, false) : 0;
        double nj = p.containsKey("memory.access.energy.nj") ? num(p, "memory.access.energy.nj", where, false) : 0;
        List<Category> cats = new ArrayList<>();
        for (String c : req(p, "categories", where).split(",")) {
            String cn = c.trim();
            if (cn.isEmpty()) continue;
            String m = req(p, "category." + cn + ".mnemonics", where);
            List<String> ms = new ArrayList<>();
            for (String x : m.split(",")) if (!x.isBlank()) ms.add(x.trim().toLowerCase(Locale.ROOT));
            double cyc = p.containsKey("category." + cn + ".cycles") ? num(p, "category." + cn + ".cycles", where, true) : 0;
            double pw = p.containsKey("category." + cn + ".power.mw") ? num(p, "category." + cn + ".power.mw", where, true) : 0;
            cats.add(new Category(cn, ms, cyc, pw));
        }
        for (String k : p.stringPropertyNames()) {
            if (!k.startsWith("category.") && !List.of("name", "arch", "frequency.mhz", "power.mw", "cpi", "memory.access.rate",
                    "memory.access.energy.nj", "categories", "description").contains(k))
                throw new NativeException(where + ": unknown key '" + k + "'");
        }
        return new CpuProfile(name, arch, f, power, cpi, rate, nj, cats);
    }

    private static String req(Properties p, String k, String where) {
        String v = p.getProperty(k);
        if (v == null || v.isBlank()) throw new NativeException(where + ": missing '" + k + "'");
        return v.trim();
    }

    private static double num(Properties p, String k, String where, boolean positive) {
        try {
            double d = Double.parseDouble(p.getProperty(k).trim());
            if (Double.isNaN(d) || d < 0 || (positive && d == 0)) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException | NullPointerException e) {
            throw new NativeException(where + ": '" + k + "' must be a " + (positive ? "positive " : "non-negative ") + "number");
        }
    }

    /**
     * The category of an instruction. Mnemonics are matched as capstone prints them and without a
     * width qualifier ({@code .w}, {@code .n}); {@code pop} with {@code pc} in its list is a
     * load (it also branches, but costs like a load).
     */
    public String categorize(String mnemonic, String operands) {
        String m = mnemonic.toLowerCase(Locale.ROOT);
        return cache.computeIfAbsent(m, k -> {
            String plain = k.endsWith(".w") || k.endsWith(".n") ? k.substring(0, k.length() - 2) : k;
            for (Category c : categories) if (c.matches(k) || c.matches(plain)) return c.name();
            return OTHER;
        });
    }

    public Category category(String name) {
        for (Category c : categories) if (c.name().equals(name)) return c;
        return null;
    }

    /** Names of the categories in order, then {@code other}. */
    public List<String> categoryNames() {
        List<String> n = new ArrayList<>();
        for (Category c : categories) n.add(c.name());
        n.add(OTHER);
        return n;
    }

    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("arch", arch);
        m.put("frequency_mhz", frequencyHz / 1e6);
        m.put("power_mw", powerMilliwatts);
        m.put("cpi", cpi);
        return m;
    }
}
