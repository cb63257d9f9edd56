package org.hyprof.correlate;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * An Android {@code power_profile.xml} (the file every device ships in its framework resources):
 * {@code <device>} with {@code <item name="k">number</item>} and
 * {@code <array name="k"><value>number</value>…</array>}. Values are currents in mA at the
 * battery's nominal voltage, speeds in kHz, {@code battery.capacity} in mAh.
 *
 * <p>Read as it ships: a text file, the compiled binary XML {@code aapt} puts into an APK
 * ({@link BinaryXml}), or the APK (any zip) itself, whose {@code res/xml/power_profile.xml} is
 * taken ({@code framework-res.apk} holds the device's). Named profiles ship with hyprof
 * ({@link #names()}): {@code sample} (values of hyprof's own choosing) and real devices' published
 * files.
 *
 * <p>The CPU's current while running one core of cluster N at speed step K:
 * <ul>
 * <li>per-policy keys (AOSP's newest): {@code cpu.active + cpu.scaling_policy_power.policyP +
 *     cpu.scaling_step_power.policyP[K]}. Policies are numbered by their first CPU (policy0,
 *     policy6, …); cluster N is the N-th policy in ascending order, and when
 *     {@code cpu.clusters.cores} is given each policy number must be the first CPU of its
 *     cluster. When a file has both per-policy and per-cluster keys, the per-policy ones are used
 *     (as Android does); speeds then come from {@code cpu.core_speeds.clusterN} if present;</li>
 * <li>per-cluster keys (Android 9+): {@code cpu.active + cpu.cluster_power.clusterN +
 *     cpu.core_power.clusterN[K]}, speeds {@code cpu.core_speeds.clusterN};</li>
 * <li>legacy keys (Android 7–8): {@code cpu.active.clusterN[K]}, speeds {@code cpu.speeds.clusterN};
 *     and the oldest single-cluster form: {@code cpu.active[K]}, speeds {@code cpu.speeds}.</li>
 * </ul>
 * {@code cpu.idle}, {@code cpu.suspend} and {@code battery.capacity} are read and checked but do
 * not enter the CPU power of running code.
 *
 * <p>Checked when read, each problem one line naming the file and the key: every {@code cpu.*}
 * and {@code battery.*} key must be one of the families above (with {@code cpu.awake} and
 * {@code cpu.power_brackets.policyN}, which are accepted and unused), an item or an array as
 * AOSP defines it, defined once, non-negative; an array's length must match its speeds'
 * ({@code core_power} against {@code core_speeds}, {@code active} against {@code speeds},
 * {@code scaling_step_power} against its cluster's {@code core_speeds}); a cluster number must
 * be below the count of {@code cpu.clusters.cores}. Keys of other components (screen, radio,
 * Wi-Fi, …) are accepted unread: they do not enter a CPU estimate, and vendors add their own.
 *
 * <p>Power in mW = current (mA) × voltage (V); the voltage is the user's choice (a profile does not
 * carry one), 3.8 V by default (a typical Li-ion nominal voltage).
 */
public final class PowerProfile {
    /** The voltage used when none is given. */
    public static final double DEFAULT_VOLTAGE = 3.8;
    /** The built-in sample profile (values of hyprof's own choosing, not a real device's). */
    public static final String SAMPLE_RESOURCE = "power_profile-sample.xml";
    /** Where an APK keeps the profile. */
    public static final String APK_ENTRY = "res/xml/power_profile.xml";
    /** Files (and APK entries) larger than this are refused before they are read. */
    static final long MAX_BYTES = 16L << 20;

    /** The shipped profiles' names, as a constant for help texts (equal to {@link #names()}, checked when the class loads). */
    public static final String SHIPPED_NAMES = "sample, pixel-4a";

    /** A profile shipped with hyprof, chosen by name. */
    public record Shipped(String name, String resource, String description) {}

    private static final List<Shipped> SHIPPED = List.of(
            new Shipped("sample", SAMPLE_RESOURCE, "built-in sample power profile (not a real device)"),
            new Shipped("pixel-4a", "power_profile-pixel-4a.xml",
                    "Google Pixel 4a (sunfish) power profile, from its AOSP device tree"));

    /** What the CPU draws in one setting, and where the figure came from. */
    public record CpuPower(String source, int cluster, int step, long speedKilohertz, double currentMilliamps,
                           double voltage, String formula) {
        public double powerMilliwatts() {
            return currentMilliamps * voltage;
        }

        /** One line for reports. */
        public String describe() {
            return String.format(Locale.ROOT, "%s: cluster %d step %d (%s), %s = %.2f mA x %.2f V = %.1f mW", source, cluster,
                    step, speedKilohertz > 0 ? speedKilohertz / 1000 + " MHz" : "speed unknown", formula, currentMilliamps, voltage,
                    powerMilliwatts());
        }
    }

    static {
        if (!names().equals(SHIPPED_NAMES)) throw new AssertionError("SHIPPED_NAMES is not " + names());
    }

    private static final String ACTIVE = "cpu.active";
    private static final String CORES = "cpu.clusters.cores";
    private static final String CLUSTER_POWER = "cpu.cluster_power.cluster";
    private static final String CORE_POWER = "cpu.core_power.cluster";
    private static final String CORE_SPEEDS = "cpu.core_speeds.cluster";
    private static final String SPEEDS = "cpu.speeds.cluster";
    private static final String ACTIVE_CLUSTER = "cpu.active.cluster";
    private static final String POLICY_POWER = "cpu.scaling_policy_power.policy";
    private static final String STEP_POWER = "cpu.scaling_step_power.policy";
    private static final String BRACKETS = "cpu.power_brackets.policy";

    private enum Kind { ITEM, ARRAY, EITHER }

    /** Exact {@code cpu.*}/{@code battery.*} keys and what they must be. */
    private static final Map<String, Kind> KEYS = Map.of(
            ACTIVE, Kind.EITHER, "cpu.idle", Kind.ITEM, "cpu.suspend", Kind.ITEM, "cpu.awake", Kind.ITEM,
            CORES, Kind.EITHER, "cpu.speeds", Kind.ARRAY, "battery.capacity", Kind.ITEM, "battery.typical.capacity", Kind.ITEM);

    /** Numbered key families ({@code prefix} + a number) and what they must be. */
    private static final Map<String, Kind> FAMILIES = Map.of(
            CLUSTER_POWER, Kind.ITEM, CORE_POWER, Kind.ARRAY, CORE_SPEEDS, Kind.ARRAY, SPEEDS, Kind.ARRAY,
            ACTIVE_CLUSTER, Kind.ARRAY, POLICY_POWER, Kind.ITEM, STEP_POWER, Kind.ARRAY, BRACKETS, Kind.ARRAY);

    private final String source;
    private final Map<String, Double> items = new LinkedHashMap<>();
    private final Map<String, List<Double>> arrays = new LinkedHashMap<>();
    /** Policy numbers in ascending order (empty: the file has no per-policy keys). */
    private final List<Integer> policies = new ArrayList<>();

    private PowerProfile(String source) {
        this.source = source;
    }

    /** The names of the profiles shipped with hyprof, in the order {@code --help} lists them. */
    public static List<Shipped> shipped() {
        return SHIPPED;
    }

    /** Shipped names, comma-separated, for help texts. */
    public static String names() {
        List<String> n = new ArrayList<>();
        for (Shipped s : SHIPPED) n.add(s.name());
        return String.join(", ", n);
    }

    /**
     * A shipped profile's name or a file (text or binary power_profile.xml, or an APK holding
     * one). A shipped name wins over a file of the same name in the working directory: write
     * {@code ./NAME} for the file.
     */
    public static PowerProfile load(String nameOrFile) {
        for (Shipped s : SHIPPED) if (s.name().equals(nameOrFile)) return shipped(s);
        return read(Path.of(nameOrFile));
    }

    /** Reads a power_profile.xml (text or binary) or an APK holding one; errors are one line naming the file. */
    public static PowerProfile read(Path file) {
        String source = file.toString();
        try {
            if (!Files.exists(file)) throw new NoSuchFileException(source);
            long size = Files.size(file);
            if (size > MAX_BYTES && !isZip(file))
                throw new IllegalArgumentException(source + ": " + size + " bytes, too large for a power profile (limit " + MAX_BYTES + ")");
            if (isZip(file)) return parse(apkEntry(file), source + "!/" + APK_ENTRY);
            return parse(Files.readAllBytes(file), source);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such power profile");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read power profile: " + e.getMessage());
        }
    }

    private static boolean isZip(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] m = in.readNBytes(4);
            return m.length == 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4;
        }
    }

    private static byte[] apkEntry(Path file) throws IOException {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            ZipEntry e = zip.getEntry(APK_ENTRY);
            if (e == null) throw new IllegalArgumentException(file + ": an APK or zip without " + APK_ENTRY);
            try (InputStream in = zip.getInputStream(e)) {
                byte[] b = in.readNBytes((int) MAX_BYTES + 1); // the declared size is not trusted
                if (b.length > MAX_BYTES)
                    throw new IllegalArgumentException(file + "!/" + APK_ENTRY + ": more than " + MAX_BYTES + " bytes, too large for a power profile");
                return b;
            }
        } catch (ZipException e) {
            throw new IllegalArgumentException(file + ": not a readable zip (" + e.getMessage() + ")");
        }
    }

    /** The built-in sample (values of hyprof's own choosing, documented as such in it). */
    public static PowerProfile sample() {
        return shipped(SHIPPED.get(0));
    }

    private static PowerProfile shipped(Shipped s) {
        try (InputStream in = PowerProfile.class.getResourceAsStream(s.resource())) {
            if (in == null) throw new IllegalStateException("built-in power profile " + s.name() + " missing");
            return parse(in.readAllBytes(), s.description());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Text or binary XML; errors are one line starting with {@code source}. */
    static PowerProfile parse(byte[] bytes, String source) {
        XmlElement root;
        try {
            root = BinaryXml.looksBinary(bytes) ? BinaryXml.parse(bytes) : text(bytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": not a power_profile.xml (" + firstLine(e.getMessage()) + ")");
        }
        return interpret(root, source);
    }

    private static XmlElement text(byte[] bytes) {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            doc = b.parse(new ByteArrayInputStream(bytes));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalArgumentException(firstLine(e.getMessage()));
        }
        return tree(doc.getDocumentElement());
    }

    private static XmlElement tree(Element e) {
        XmlElement x = new XmlElement(e.getTagName());
        NamedNodeMap as = e.getAttributes();
        for (int i = 0; i < as.getLength(); i++) x.attributes.put(as.item(i).getNodeName(), as.item(i).getNodeValue());
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element ce) x.children.add(tree(ce));
            else if (c.getNodeType() == Node.TEXT_NODE || c.getNodeType() == Node.CDATA_SECTION_NODE) x.text.append(c.getNodeValue());
        }
        return x;
    }

    private static PowerProfile interpret(XmlElement root, String source) {
        if (!root.tag.equals("device"))
            throw new IllegalArgumentException(source + ": not a power_profile.xml (root element <" + root.tag + ">, expected <device>)");
        PowerProfile p = new PowerProfile(source);
        for (XmlElement e : root.children) {
            String name = e.attribute("name");
            if (!e.tag.equals("item") && !e.tag.equals("array")) continue; // <modem> etc.: not read here
            if (name.isEmpty()) throw new IllegalArgumentException(source + ": <" + e.tag + "> without a name");
            if (p.items.containsKey(name) || p.arrays.containsKey(name))
                throw new IllegalArgumentException(source + ": " + name + ": defined twice");
            if (e.tag.equals("item")) {
                p.items.put(name, number(e.text.toString(), source, name));
            } else {
                List<Double> values = new ArrayList<>();
                for (XmlElement v : e.children) if (v.tag.equals("value")) values.add(number(v.text.toString(), source, name));
                p.arrays.put(name, values);
            }
        }
        p.check();
        return p;
    }

    private static double number(String text, String source, String key) {
        try {
            double d = Double.parseDouble(text.trim());
            if (!Double.isFinite(d)) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + ": " + key + ": not a number: " + shown(text.trim()));
        }
    }

    /** A value from the file as an error message shows it: one line, quoted, at most 40 characters. */
    static String shown(String v) {
        StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < v.length() && i < 40; i++) {
            char c = v.charAt(i);
            if (c == '\n') b.append("\\n");
            else if (c < 0x20 || c == 0x7f) b.append(String.format("\\x%02x", (int) c));
            else b.append(c);
        }
        return b.append(v.length() > 40 ? "…'" : "'").toString();
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private IllegalArgumentException bad(String key, String problem) {
        return new IllegalArgumentException(source + ": " + key + ": " + problem);
    }

    /** The checks of the class comment, in file order. */
    private void check() {
        Map<String, Kind> kinds = new LinkedHashMap<>();
        for (String k : items.keySet()) kinds.put(k, Kind.ITEM);
        for (String k : arrays.keySet()) kinds.put(k, Kind.ARRAY);
        TreeSet<Integer> policyNumbers = new TreeSet<>();
        for (Map.Entry<String, Kind> e : kinds.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith("cpu.") && !key.startsWith("battery.")) continue;
            Kind want = KEYS.get(key);
            int number = -1;
            if (want == null) {
                for (Map.Entry<String, Kind> f : FAMILIES.entrySet()) {
                    if (key.startsWith(f.getKey()) && key.length() > f.getKey().length() && key.length() <= f.getKey().length() + 3
                            && key.substring(f.getKey().length()).chars().allMatch(c -> c >= '0' && c <= '9')) {
                        want = f.getValue();
                        number = Integer.parseInt(key.substring(f.getKey().length()));
                    }
                }
            }
            if (want == null) throw bad(key, "unknown key (not one of AOSP's cpu.* or battery.* keys)");
            if (want != Kind.EITHER && want != e.getValue())
                throw bad(key, "must be an <" + (want == Kind.ITEM ? "item" : "array") + ">");
            List<Double> values = e.getValue() == Kind.ITEM ? List.of(items.get(key)) : arrays.get(key);
            if (values.isEmpty()) throw bad(key, "array without values");
            for (double v : values) if (v < 0) throw bad(key, "negative value " + v);
            if (key.startsWith(POLICY_POWER) || key.startsWith(STEP_POWER)) policyNumbers.add(number);
        }
        List<Integer> cores = coresPerCluster();
        if (cores != null) {
            for (String key : kinds.keySet()) {
                for (String prefix : List.of(CLUSTER_POWER, CORE_POWER, CORE_SPEEDS, SPEEDS, ACTIVE_CLUSTER)) {
                    if (key.startsWith(prefix)) {
                        String n = key.substring(prefix.length());
                        if (!n.isEmpty() && n.chars().allMatch(Character::isDigit) && Integer.parseInt(n) >= cores.size())
                            throw bad(key, "cluster " + n + ", but " + CORES + " lists " + cores.size() + " cluster(s)");
                    }
                }
            }
        }
        for (String key : arrays.keySet()) {
            if (key.startsWith(CORE_POWER)) sameLength(key, CORE_SPEEDS + key.substring(CORE_POWER.length()));
            else if (key.startsWith(ACTIVE_CLUSTER)) sameLength(key, SPEEDS + key.substring(ACTIVE_CLUSTER.length()));
            else if (key.equals(ACTIVE)) sameLength(key, "cpu.speeds");
        }
        policies.addAll(policyNumbers);
        if (!policies.isEmpty() && cores != null) {
            if (policies.size() != cores.size())
                throw bad(POLICY_POWER + policies.get(0), policies.size() + " polic" + (policies.size() == 1 ? "y" : "ies") + " (" + policyList()
                        + "), but " + CORES + " lists " + cores.size() + " cluster(s)");
            int firstCpu = 0;
            for (int c = 0; c < cores.size(); c++) {
                if (policies.get(c) != firstCpu)
                    throw bad(policyKey(policies.get(c)), "policy " + policies.get(c) + " for cluster " + c + ", whose first CPU by " + CORES
                            + " is cpu" + firstCpu + " (policies are numbered by their first CPU)");
                firstCpu += cores.get(c);
            }
        }
        for (int c = 0; c < policies.size(); c++) {
            String step = STEP_POWER + policies.get(c);
            if (!arrays.containsKey(step)) throw bad(policyKey(policies.get(c)), "no " + step + " beside it");
            sameLength(step, CORE_SPEEDS + c);
        }
    }

    private String policyKey(int policy) {
        return items.containsKey(POLICY_POWER + policy) ? POLICY_POWER + policy : STEP_POWER + policy;
    }

    private String policyList() {
        List<String> s = new ArrayList<>();
        for (int p : policies) s.add("policy" + p);
        return String.join(", ", s);
    }

    private void sameLength(String key, String speedsKey) {
        List<Double> speeds = arrays.get(speedsKey);
        if (speeds != null && speeds.size() != arrays.get(key).size())
            throw bad(key, arrays.get(key).size() + " values, but " + speedsKey + " has " + speeds.size());
    }

    /** {@code cpu.clusters.cores} as whole positive numbers, or null when absent. */
    private List<Integer> coresPerCluster() {
        List<Double> raw = arrays.containsKey(CORES) ? arrays.get(CORES) : items.containsKey(CORES) ? List.of(items.get(CORES)) : null;
        if (raw == null) return null;
        List<Integer> cores = new ArrayList<>();
        for (double d : raw) {
            if (d < 1 || d != Math.rint(d) || d > 4096) throw bad(CORES, "core count " + d + " is not a whole number of at least 1");
            cores.add((int) d);
        }
        return cores;
    }

    /** Where this profile came from (a file, an APK entry, or a shipped profile). */
    public String source() {
        return source;
    }

    /** {@code battery.capacity} in mAh, when the profile gives it. */
    public OptionalDouble batteryCapacityMilliampHours() {
        return optional("battery.capacity");
    }

    /** {@code cpu.idle}: current in mA while the CPU idles (kernel idle loop), when given. */
    public OptionalDouble idleMilliamps() {
        return optional("cpu.idle");
    }

    /** {@code cpu.suspend}: current in mA while the CPU is suspended, when given. */
    public OptionalDouble suspendMilliamps() {
        return optional("cpu.suspend");
    }

    private OptionalDouble optional(String key) {
        Double d = items.get(key);
        return d == null ? OptionalDouble.empty() : OptionalDouble.of(d);
    }

    /** Number of speed steps of a cluster (0 when the profile has no speeds for it). */
    public int steps(int cluster) {
        if (!policies.isEmpty()) return cluster < policies.size() ? arrays.get(STEP_POWER + policies.get(cluster)).size() : 0;
        List<Double> s = speeds(cluster);
        if (s != null) return s.size();
        List<Double> a = activeArray(cluster);
        return a == null ? 0 : a.size();
    }

    private List<Double> speeds(int cluster) {
        List<Double> s = arrays.get(CORE_SPEEDS + cluster);
        if (s == null) s = arrays.get(SPEEDS + cluster);
        if (s == null && cluster == 0) s = arrays.get("cpu.speeds");
        return s;
    }

    private List<Double> activeArray(int cluster) {
        List<Double> a = arrays.get(ACTIVE_CLUSTER + cluster);
        if (a == null && cluster == 0) a = arrays.get(ACTIVE);
        return a;
    }

    /**
     * The CPU's power for one running core of {@code cluster} at speed {@code step} (null: the
     * fastest step). Throws IllegalArgumentException (one line) when the profile lacks the keys.
     */
    public CpuPower cpu(int cluster, Integer step, double voltage) {
        if (cluster < 0) throw new IllegalArgumentException("--cluster must be ≥ 0");
        if (!(voltage > 0) || voltage > 20) throw new IllegalArgumentException("--voltage must be between 0 and 20 V, not " + voltage);
        double active = items.getOrDefault(ACTIVE, 0.0);
        if (!policies.isEmpty()) {
            if (cluster >= policies.size())
                throw new IllegalArgumentException(source + ": no CPU power for cluster " + cluster + " (per-policy keys: "
                        + policyList() + ", clusters 0.." + (policies.size() - 1) + " in that order)");
            int policy = policies.get(cluster);
            List<Double> stepPower = arrays.get(STEP_POWER + policy);
            int k = pick(step, stepPower.size(), cluster);
            double policyPower = items.getOrDefault(POLICY_POWER + policy, 0.0);
            String formula = String.format(Locale.ROOT, "cpu.active %.2f + %s%d %.2f + %s%d[%d] %.2f",
                    active, POLICY_POWER, policy, policyPower, STEP_POWER, policy, k, stepPower.get(k));
            return new CpuPower(source, cluster, k, speed(arrays.get(CORE_SPEEDS + cluster), k), active + policyPower + stepPower.get(k),
                    voltage, formula);
        }
        List<Double> corePower = arrays.get(CORE_POWER + cluster);
        List<Double> speeds = speeds(cluster);
        if (corePower != null) {
            int k = pick(step, corePower.size(), cluster);
            double clusterPower = items.getOrDefault(CLUSTER_POWER + cluster, 0.0);
            double current = active + clusterPower + corePower.get(k);
            String formula = String.format(Locale.ROOT, "cpu.active %.2f + cpu.cluster_power.cluster%d %.2f + cpu.core_power.cluster%d[%d] %.2f",
                    active, cluster, clusterPower, cluster, k, corePower.get(k));
            return new CpuPower(source, cluster, k, speed(speeds, k), current, voltage, formula);
        }
        List<Double> activeArray = activeArray(cluster);
        if (activeArray != null) {
            int k = pick(step, activeArray.size(), cluster);
            String key = arrays.containsKey(ACTIVE_CLUSTER + cluster) ? ACTIVE_CLUSTER + cluster : ACTIVE;
            return new CpuPower(source, cluster, k, speed(speeds, k), activeArray.get(k), voltage,
                    String.format(Locale.ROOT, "%s[%d] %.2f", key, k, activeArray.get(k)));
        }
        throw new IllegalArgumentException(source + ": no CPU power for cluster " + cluster + " (expected cpu.core_power.cluster"
                + cluster + " or cpu.active.cluster" + cluster + "; clusters here: " + clusters() + ")");
    }

    private int pick(Integer step, int n, int cluster) {
        if (n == 0) throw new IllegalArgumentException(source + ": cluster " + cluster + " has no speed steps");
        if (step == null) return n - 1;
        if (step < 0 || step >= n)
            throw new IllegalArgumentException("--freq-step " + step + ": cluster " + cluster + " of " + source + " has steps 0.." + (n - 1));
        return step;
    }

    private static long speed(List<Double> speeds, int k) {
        return speeds != null && k < speeds.size() ? Math.round(speeds.get(k)) : 0;
    }

    private String clusters() {
        List<String> c = new ArrayList<>();
        for (String k : arrays.keySet()) {
            if (k.startsWith("cpu.core_power.cluster")) c.add(k.substring("cpu.core_power.cluster".length()));
            else if (k.startsWith("cpu.active.cluster")) c.add(k.substring("cpu.active.cluster".length()));
        }
        if (c.isEmpty() && arrays.containsKey("cpu.active")) c.add("0");
        return c.isEmpty() ? "none" : String.join(", ", c);
    }
}
