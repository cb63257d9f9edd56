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

    static void startFromResources(ClassLoader loader) {
        try {
            if (Hyprof.isStarted()) return;
            String manifest = read(loader, MANIFEST_RESOURCE);
            boolean apk = manifest == null;
            if (apk) manifest = read(loader, MANIFEST_ASSET);
            if (manifest == null) return;
            Options o = new Options();
            String props = read(loader, apk ? OPTIONS_ASSET : OPTIONS_RESOURCE);
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
            if (!Hyprof.start(o)) return;
            defineFromManifest(manifest, o); // after start: the manifest goes into the session
            Recorder.report("recording to " + o.out);
        } catch (Throwable t) {
            Recorder.report("not recording: " + t.getMessage());
        }
    }

    /** Defines every probe line of a manifest ({@code probe id kind resolution ...}). */
    static void defineFromManifest(String manifest, Options o) throws IOException {
        BufferedReader r = new BufferedReader(new java.io.StringReader(manifest));
        List<int[]> probes = new ArrayList<int[]>();
        int max = 0;
        for (String line; (line = r.readLine()) != null; ) {
            if (!line.startsWith("probe\t")) continue;
            String[] f = line.split("\t", 5);
            int id = Integer.parseInt(f[1]);
            byte kind = f[2].equals("loop") ? Config.KIND_LOOP : Config.KIND_METHOD;
            probes.add(new int[] {id, kind, o.resolutionOn(f[3]) ? 1 : 0});
            max = Math.max(max, id + 1);
        }
        byte[] kinds = new byte[max];
        boolean[] on = new boolean[max];
        for (int[] p : probes) {
            kinds[p[0]] = (byte) p[1];
            on[p[0]] = p[2] == 1;
        }
        Hyprof.defineProbes(0, kinds, on, manifest);
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
