package org.hyprof.bb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipFile;

/**
 * conscrypt-android 2.5.2's native library, unmodified: the build copies the AAR from Maven Central
 * to {@code target/conscrypt/conscrypt-android.aar} (bb-tracer's pom); this takes
 * {@code jni/<abi>/libconscrypt_jni.so} out of it into {@code target/conscrypt/<abi>/}.
 */
public final class Conscrypt {
    private Conscrypt() {}

    public static synchronized Path library(String abi) throws IOException {
        Path aar = Path.of("target/conscrypt/conscrypt-android.aar");
        if (!Files.exists(aar)) throw new IOException(aar.toAbsolutePath() + " is missing: the build copies it (mvn test, not the IDE alone)");
        Path out = Path.of("target/conscrypt", abi, "libconscrypt_jni.so");
        if (Files.exists(out)) return out;
        Files.createDirectories(out.getParent());
        try (ZipFile z = new ZipFile(aar.toFile())) {
            var entry = z.getEntry("jni/" + abi + "/libconscrypt_jni.so");
            if (entry == null) throw new IOException(aar + " has no jni/" + abi + "/libconscrypt_jni.so");
            try (InputStream in = z.getInputStream(entry)) {
                Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return out;
    }
}
