package org.hyprof.correlate;

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
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * An Android {@code power_profile.xml} (the file every device ships in its framework resources):
 * {@code <device>} with {@code <item name="k">number</item>} and
 * {@code <array name="k"><value>number</value>…</array>}. Values are currents in mA at the
 * battery's nominal voltage, speeds in kHz.
 *
 * <p>The CPU's current while running one core of cluster N at speed step K:
 * <ul>
 * <li>modern keys (Android 9+): {@code cpu.active + cpu.cluster_power.clusterN +
 *     cpu.core_power.clusterN[K]}, speeds {@code cpu.core_speeds.clusterN};</li>
 * <li>legacy keys (Android 7–8): {@code cpu.active.clusterN[K]}, speeds {@code cpu.speeds.clusterN};
 *     and the oldest single-cluster form: {@code cpu.active[K]}, speeds {@code cpu.speeds}.</li>
 * </ul>
 * Power in mW = current (mA) × voltage (V); the voltage is the user's choice (a profile does not
 * carry one), 3.8 V by default (a typical Li-ion nominal voltage).
 */
public final class PowerProfile {
    /** The voltage used when none is given. */
    public static final double DEFAULT_VOLTAGE = 3.8;
    /** The built-in sample profile (values of hyprof's own choosing, not a real device's). */
    public static final String SAMPLE_RESOURCE = "power_profile-sample.xml";

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

    private final String source;
    private final Map<String, Double> items = new LinkedHashMap<>();
    private final Map<String, List<Double>> arrays = new LinkedHashMap<>();

    private PowerProfile(String source) {
        this.source = source;
    }

    /** Reads a power_profile.xml; errors are one line naming the file. */
    public static PowerProfile read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such power profile");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read power profile: " + e.getMessage());
        }
    }

    /** The built-in sample (values of hyprof's own choosing, documented as such in it). */
    public static PowerProfile sample() {
        try (InputStream in = PowerProfile.class.getResourceAsStream(SAMPLE_RESOURCE)) {
            if (in == null) throw new IllegalStateException("built-in sample power profile missing");
            return parse(in, "built-in sample power profile (not a real device)");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static PowerProfile parse(InputStream in, String source) {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            doc = b.parse(in);
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalArgumentException(source + ": not a power_profile.xml (" + firstLine(e.getMessage()) + ")");
        }
        Element root = doc.getDocumentElement();
        if (!root.getTagName().equals("device"))
            throw new IllegalArgumentException(source + ": not a power_profile.xml (root element <" + root.getTagName() + ">, expected <device>)");
        PowerProfile p = new PowerProfile(source);
        NodeList children = root.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (!(children.item(i) instanceof Element e)) continue;
            String name = e.getAttribute("name");
            if (name.isEmpty()) throw new IllegalArgumentException(source + ": <" + e.getTagName() + "> without a name");
            switch (e.getTagName()) {
                case "item" -> p.items.put(name, number(e.getTextContent(), source, name));
                case "array" -> {
                    List<Double> values = new ArrayList<>();
                    NodeList vs = e.getElementsByTagName("value");
                    for (int k = 0; k < vs.getLength(); k++) values.add(number(vs.item(k).getTextContent(), source, name));
                    p.arrays.put(name, values);
                }
                default -> { } // other elements (none in AOSP's format) are ignored
            }
        }
        return p;
    }

    private static double number(String text, String source, String key) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + ": " + key + ": not a number: '" + text.trim() + "'");
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Where this profile came from (a file, or the built-in sample). */
    public String source() {
        return source;
    }

    /** Number of speed steps of a cluster (0 when the profile has no speeds for it). */
    public int steps(int cluster) {
        List<Double> s = speeds(cluster);
        if (s != null) return s.size();
        List<Double> a = activeArray(cluster);
        return a == null ? 0 : a.size();
    }

    private List<Double> speeds(int cluster) {
        List<Double> s = arrays.get("cpu.core_speeds.cluster" + cluster);
        if (s == null) s = arrays.get("cpu.speeds.cluster" + cluster);
        if (s == null && cluster == 0) s = arrays.get("cpu.speeds");
        return s;
    }

    private List<Double> activeArray(int cluster) {
        List<Double> a = arrays.get("cpu.active.cluster" + cluster);
        if (a == null && cluster == 0) a = arrays.get("cpu.active");
        return a;
    }

    /**
     * The CPU's power for one running core of {@code cluster} at speed {@code step} (null: the
     * fastest step). Throws IllegalArgumentException (one line) when the profile lacks the keys.
     */
    public CpuPower cpu(int cluster, Integer step, double voltage) {
        if (cluster < 0) throw new IllegalArgumentException("--cluster must be ≥ 0");
        if (!(voltage > 0) || voltage > 20) throw new IllegalArgumentException("--voltage must be between 0 and 20 V, not " + voltage);
        List<Double> corePower = arrays.get("cpu.core_power.cluster" + cluster);
        List<Double> speeds = speeds(cluster);
        if (corePower != null) {
            int k = pick(step, corePower.size(), cluster);
            double active = items.getOrDefault("cpu.active", 0.0);
            double clusterPower = items.getOrDefault("cpu.cluster_power.cluster" + cluster, 0.0);
            double current = active + clusterPower + corePower.get(k);
            String formula = String.format(Locale.ROOT, "cpu.active %.2f + cpu.cluster_power.cluster%d %.2f + cpu.core_power.cluster%d[%d] %.2f",
                    active, cluster, clusterPower, cluster, k, corePower.get(k));
            return new CpuPower(source, cluster, k, speed(speeds, k), current, voltage, formula);
        }
        List<Double> active = activeArray(cluster);
        if (active != null) {
            int k = pick(step, active.size(), cluster);
            String key = arrays.containsKey("cpu.active.cluster" + cluster) ? "cpu.active.cluster" + cluster : "cpu.active";
            return new CpuPower(source, cluster, k, speed(speeds, k), active.get(k), voltage,
                    String.format(Locale.ROOT, "%s[%d] %.2f", key, k, active.get(k)));
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
