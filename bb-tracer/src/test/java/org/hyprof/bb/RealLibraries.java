package org.hyprof.bb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipFile;

/**
 * Real Android libraries from AARs the build copies from Maven Central into {@code target/}
 * (bb-tracer's pom), unmodified: {@code jni/<abi>/LIB.so} taken out of the AAR into
 * {@code target/<name>/<abi>/}. conscrypt-android 2.5.2's {@code libconscrypt_jni.so}
 * ({@code target/conscrypt/conscrypt-android.aar}), mmkv's {@code libmmkv.so}
 * ({@code target/mmkv/mmkv.aar}) and zstd-jni 1.5.7-3's {@code libzstd-jni-1.5.7-3.so}
 * ({@code target/zstd/zstd-jni.aar}; the same version's jar beside it, {@link #zstdJar}) and
 * fbjni 0.7.0's {@code libfbjni.so} with the {@code libc++_shared.so} it ships beside it
 * ({@code target/fbjni/fbjni.aar}).
 */
public final class RealLibraries {
    private RealLibraries() {}

    /** conscrypt-android 2.5.2's libconscrypt_jni.so for an ABI. */
    public static Path conscrypt(String abi) throws IOException {
        return fromAar(Path.of("target/conscrypt/conscrypt-android.aar"), abi, "libconscrypt_jni.so");
    }

    /** mmkv's libmmkv.so for an ABI. */
    public static Path mmkv(String abi) throws IOException {
        return fromAar(Path.of("target/mmkv/mmkv.aar"), abi, "libmmkv.so");
    }

    /** zstd-jni 1.5.7-3's libzstd-jni-1.5.7-3.so for an ABI. */
    public static Path zstd(String abi) throws IOException {
        return fromAar(Path.of("target/zstd/zstd-jni.aar"), abi, "libzstd-jni-1.5.7-3.so");
    }

    /** fbjni 0.7.0's libfbjni.so for an ABI, with the AAR's libc++_shared.so in the same directory (its DT_NEEDED). */
    public static Path fbjni(String abi) throws IOException {
        Path aar = Path.of("target/fbjni/fbjni.aar");
        fromAar(aar, abi, "libc++_shared.so");
        return fromAar(aar, abi, "libfbjni.so");
    }

    /** zstd-jni 1.5.7-3's host jar (with its linux-amd64 library), the reference for the emulated one. */
    public static Path zstdJar() throws IOException {
        Path jar = Path.of("target/zstd/zstd-jni.jar");
        if (!Files.exists(jar)) throw new IOException(jar.toAbsolutePath() + " is missing: the build copies it (mvn test, not the IDE alone)");
        return jar;
    }

    private static synchronized Path fromAar(Path aar, String abi, String so) throws IOException {
        if (!Files.exists(aar)) throw new IOException(aar.toAbsolutePath() + " is missing: the build copies it (mvn test, not the IDE alone)");
        Path out = aar.resolveSibling(abi).resolve(so);
        if (Files.exists(out)) return out;
        Files.createDirectories(out.getParent());
        try (ZipFile z = new ZipFile(aar.toFile())) {
            var entry = z.getEntry("jni/" + abi + "/" + so);
            if (entry == null) throw new IOException(aar + " has no jni/" + abi + "/" + so);
            try (InputStream in = z.getInputStream(entry)) {
                Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return out;
    }
}
