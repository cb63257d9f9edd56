package org.hyprof.runtime;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Starts recording in a program that was instrumented offline ({@code hyprof instrument}) and runs
 * without the agent: the first probe call loads {@code META-INF/hyprof/manifest.tsv} and
 * {@code META-INF/hyprof/runtime.properties} from the class path (an instrumented APK carries
 * them as {@code assets/hyprof/manifest.tsv} and {@code assets/hyprof/runtime.properties}; a
 * relative session path goes into an Android app's files directory, see {@link AndroidFiles}).
 * The system property
 * {@code hyprof.options} ({@code key=value,...}, see {@link Options}) overrides the properties.
 * Nothing happens when the agent already started recording or no manifest is present.
 */
final class Bootstrap {
    private Bootstrap() {}

    static final String MANIFEST_RESOURCE = "META-INF/hyprof/manifest.tsv";
    static final String OPTIONS_RESOURCE = "META-INF/hyprof/runtime.properties";
    /** Where an instrumented APK carries them (an app's class loader serves every APK entry). */
    static final String MANIFEST_ASSET = "assets/hyprof/manifest.tsv";
    static final String OPTIONS_ASSET = "assets/hyprof/runtime.properties";

    /** Where a piece's manifest is ({@link Hyprof#piece}): in a jar, and in an APK. */
    static String pieceResource(String key) {
        return "META-INF/hyprof/pieces/" + key + "/manifest.tsv";
    }

    static String pieceAsset(String key) {
        return "assets/hyprof/pieces/" + key + "/manifest.tsv";
    }

    /** A piece's manifest text, or null when its loader has none. */
    static String pieceManifest(ClassLoader loader, String key) throws IOException {
        if (!key.matches("[0-9a-f]{1,64}")) throw new IOException("not a piece key: " + key);
        String m = read(loader, pieceResource(key));
        return m != null ? m : read(loader, pieceAsset(key));
    }

    /**
     * Starts recording for a program whose pieces were instrumented one by one: options from
     * {@code runtime.properties} (jar or APK) and {@code hyprof.options}, as below; nothing when
     * recording runs already (the agent, or an earlier piece).
     */
    static void startForPiece(ClassLoader loader) throws IOException {
        if (Hyprof.isStarted()) return;
        String props = read(loader, OPTIONS_RESOURCE);
        start(props != null ? props : read(loader, OPTIONS_ASSET));
    }

    static void startFromResources(ClassLoader loader) {
        try {
            if (Hyprof.isStarted()) return;
            String manifest = read(loader, MANIFEST_RESOURCE);
            boolean apk = manifest == null;
            if (apk) manifest = read(loader, MANIFEST_ASSET);
            if (manifest == null) return;
            Options o = start(read(loader, apk ? OPTIONS_ASSET : OPTIONS_RESOURCE));
            if (o == null) return;
            defineFromManifest(manifest, o); // after start: the manifest goes into the session
        } catch (Throwable t) {
            Recorder.report("not recording: " + t.getMessage());
        }
    }

    /** Options from {@code props} (a runtime.properties text, or null) and the system property; starts recording. Null if it could not. */
    private static Options start(String props) throws IOException {
        Options o = new Options();
        if (props != null) {
            Properties p = new Properties();
            p.load(new java.io.StringReader(props));
            for (String k : p.stringPropertyNames()) o.set(k, p.getProperty(k));
        }
        String sys = System.getProperty("hyprof.options");
        if (sys != null) {
            Options s = Options.parse(sys); // validates
            for (String part : sys.split(",")) {
                int eq = part.indexOf('=');
                if (eq > 0) o.set(part.substring(0, eq), part.substring(eq + 1));
            }
            if (s.out != null) o.out = s.out;
        }
        if (o.out == null) o.out = "hyprof-" + Hyprof.pid() + ".hyprof";
        o.out = AndroidFiles.resolve(o.out);
        if (!Hyprof.start(o)) return null;
        Recorder.report("recording to " + o.out);
        return o;
    }

    /** Defines every probe line of a manifest ({@code probe id kind resolution ...}). */
    static void defineFromManifest(String manifest, Options o) throws IOException {
        defineFromManifest(manifest, o, 0, null);
    }

    /**
     * Defines every probe line of a manifest at {@code base + id}; the manifest goes into the
     * session with its ids moved the same way and, for a piece ({@code key} not null), a line
     * {@code piece KEY base probes} saying which ids came from it.
     */
    static void defineFromManifest(String manifest, Options o, int base, String key) throws IOException {
        BufferedReader r = new BufferedReader(new java.io.StringReader(manifest));
        List<int[]> probes = new ArrayList<int[]>();
        StringBuilder moved = base == 0 && key == null ? null : new StringBuilder();
        int max = 0, count = 0;
        for (String line; (line = r.readLine()) != null; ) {
            if (!line.startsWith("probe\t")) {
                if (moved != null) moved.append(line).append('\n');
                continue;
            }
            String[] f = line.split("\t", 5);
            int local = Integer.parseInt(f[1]);
            if (local < 0 || local > (1 << 24)) throw new IOException("probe id " + local + " out of range");
            int id = base + local;
            byte kind = f[2].equals("loop") ? Config.KIND_LOOP : Config.KIND_METHOD;
            probes.add(new int[] {id, kind, o.resolutionOn(f[3]) ? 1 : 0});
            max = Math.max(max, id + 1);
            count++;
            if (moved != null) {
                // id (field 1) and, for a loop, its method's id (field 7) move by the base
                String[] all = line.split("\t", -1);
                all[1] = Integer.toString(id);
                if (all.length > 7 && !all[7].equals("-1")) all[7] = Integer.toString(base + Integer.parseInt(all[7]));
                for (int i = 0; i < all.length; i++) moved.append(i == 0 ? "" : "\t").append(all[i]);
                moved.append('\n');
            }
        }
        if (key != null) moved.append("piece\t").append(key).append('\t').append(base).append('\t').append(count).append('\n');
        int first = key == null ? 0 : max; // a piece defines only its own ids: never one below them
        for (int[] p : probes) first = Math.min(first, p[0]);
        max = Math.max(max, first);
        byte[] kinds = new byte[max - first];
        boolean[] on = new boolean[max - first];
        for (int[] p : probes) {
            kinds[p[0] - first] = (byte) p[1];
            on[p[0] - first] = p[2] == 1;
        }
        Hyprof.defineProbes(first, kinds, on, moved != null ? moved.toString() : manifest);
    }

    private static String read(ClassLoader loader, String name) throws IOException {
        InputStream in = loader != null ? loader.getResourceAsStream(name) : ClassLoader.getSystemResourceAsStream(name);
        if (in == null) return null;
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(in, "UTF-8"));
            StringBuilder b = new StringBuilder();
            char[] buf = new char[8192];
            for (int n; (n = r.read(buf)) > 0; ) b.append(buf, 0, n);
            return b.toString();
        } finally {
            in.close();
        }
    }
}
