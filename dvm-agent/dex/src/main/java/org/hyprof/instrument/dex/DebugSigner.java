package org.hyprof.instrument.dex;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Signs an APK with an Android debug key through {@code apksigner} (Debian package
 * {@code apksigner}), the way Android's build does for debug builds: keystore
 * {@code ~/.android/debug.keystore}, alias {@code androiddebugkey}, passwords {@code android},
 * created with the JDK's {@code keytool} when it does not exist yet. An instrumented APK must be
 * signed again before it installs: its old signature no longer matches.
 */
public final class DebugSigner {
    private DebugSigner() {}

    public static final String ALIAS = "androiddebugkey";
    public static final String PASSWORD = "android";

    /** The debug keystore Android's tools use. */
    public static Path defaultKeystore() {
        return Path.of(System.getProperty("user.home"), ".android", "debug.keystore");
    }

    /** {@code apksigner} on the PATH, or null. */
    public static Path findApksigner() {
        return findApksigner(System.getenv("PATH"));
    }

    /** {@code apksigner} in a PATH-style list of directories, or null. */
    static Path findApksigner(String path) {
        if (path == null) return null;
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, "apksigner");
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** What to tell a user who has no apksigner. */
    public static String howToSign(Path apk, Path keystore) {
        return "install apksigner (Debian/Ubuntu: apt-get install apksigner) and run: apksigner sign --ks " + keystore
                + " --ks-pass pass:" + PASSWORD + " --ks-key-alias " + ALIAS + " " + apk;
    }

    /**
     * Signs {@code apk} in place (through a temporary file) with the debug key, creating the
     * keystore first when it is missing.
     *
     * @param minSdk the minSdk to tell apksigner when the APK has no manifest; null = let it read the manifest
     * @return one line describing what was done
     * @throws IOException with a one-line message when keytool or apksigner fails
     */
    public static String sign(Path apksigner, Path apk, Path keystore, Integer minSdk) throws IOException {
        String created = "";
        if (!Files.exists(keystore)) {
            createKeystore(keystore);
            created = " (created " + keystore + ")";
        }
        Path tmp = org.hyprof.instrument.OutputFiles.tempBeside(apk);
        try {
            List<String> cmd = new ArrayList<>(List.of(apksigner.toString(), "sign", "--ks", keystore.toString(),
                    "--ks-pass", "pass:" + PASSWORD, "--key-pass", "pass:" + PASSWORD, "--ks-key-alias", ALIAS,
                    "--v4-signing-enabled", "false"));
            if (minSdk != null) cmd.addAll(List.of("--min-sdk-version", minSdk.toString()));
            cmd.addAll(List.of("--out", tmp.toString(), apk.toString()));
            run(cmd, "apksigner");
            org.hyprof.instrument.OutputFiles.moveIntoPlace(tmp, apk);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return "signed " + apk + " with the debug key in " + keystore + created;
    }

    private static void createKeystore(Path keystore) throws IOException {
        if (keystore.toAbsolutePath().getParent() != null) Files.createDirectories(keystore.toAbsolutePath().getParent());
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        run(List.of(keytool.toString(), "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-alias", ALIAS, "-keyalg", "RSA", "-keysize", "2048",
                "-validity", "10000", "-dname", "CN=Android Debug,O=Android,C=US"), "keytool");
    }

    private static void run(List<String> cmd, String what) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException(what + " did not finish in 5 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(what + " interrupted");
        }
        if (p.exitValue() != 0) {
            String first = out.isEmpty() ? "exit code " + p.exitValue() : out.lines().findFirst().orElse("");
            throw new IOException(what + " failed: " + first);
        }
    }
}
