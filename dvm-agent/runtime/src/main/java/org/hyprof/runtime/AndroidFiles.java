package org.hyprof.runtime;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;

/**
 * Where an instrumented Android app writes its session file. The working directory of an app
 * process is {@code /}, which it cannot write, so a relative {@code out} path (the default
 * {@code hyprof-PID.hyprof} included) goes into the app's private files directory, from where
 * {@code adb exec-out run-as PACKAGE cat files/FILE} fetches it. The directory comes from the
 * running {@code Application} when there is one yet, else from the process name (the package,
 * before any {@code :process} suffix). Never throws: on any doubt the path is returned unchanged.
 */
final class AndroidFiles {
    private AndroidFiles() {}

    /** {@code out} as the runtime should open it on this VM. */
    static String resolve(String out) {
        try {
            if (!isAndroid(System.getProperty("java.vm.name")) || new File(out).isAbsolute()) return out;
            File dir = applicationFilesDir();
            if (dir == null) dir = filesDirOf(processName());
            if (dir == null) return out;
            if (!dir.isDirectory() && !dir.mkdirs()) return out;
            return new File(dir, out).getPath();
        } catch (Throwable t) {
            return out;
        }
    }

    /** ART and Dalvik both call themselves Dalvik. */
    static boolean isAndroid(String vmName) {
        return vmName != null && vmName.toLowerCase().contains("dalvik");
    }

    /** {@code /data/data/PACKAGE/files} for a process name like {@code com.x.app:remote}; null if none. */
    static File filesDirOf(String processName) {
        if (processName == null) return null;
        String p = processName.trim();
        int colon = p.indexOf(':');
        if (colon >= 0) p = p.substring(0, colon);
        if (p.isEmpty() || p.startsWith("<") || p.indexOf('/') >= 0 || p.indexOf('.') < 0) return null;
        return new File("/data/data/" + p + "/files");
    }

    /** {@code Application.getFilesDir()} through reflection (no Android classes at compile time). */
    private static File applicationFilesDir() {
        try {
            Object app = Class.forName("android.app.ActivityThread").getMethod("currentApplication").invoke(null);
            if (app == null) return null;
            Object dir = app.getClass().getMethod("getFilesDir").invoke(app);
            return dir instanceof File ? (File) dir : null;
        } catch (Throwable t) {
            return null;
        }
    }

    private static String processName() {
        InputStream in = null;
        try {
            in = new BufferedInputStream(new FileInputStream("/proc/self/cmdline"));
            StringBuilder b = new StringBuilder();
            for (int c; (c = in.read()) > 0 && b.length() < 256; ) b.append((char) c);
            return b.toString();
        } catch (Throwable t) {
            return null;
        } finally {
            try {
                if (in != null) in.close();
            } catch (Throwable ignored) {
                // nothing to do
            }
        }
    }
}
