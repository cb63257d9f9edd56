package com.github.luben.zstd;

/**
 * Test-only twin of zstd-jni 1.5.7-3's {@code com.github.luben.zstd.Zstd}: the same class name
 * and the JNI signatures of the few static natives ZstdJniTest calls (libzstd-jni-1.5.7-3.so
 * exports them as {@code Java_com_github_luben_zstd_Zstd_*}; it has no JNI_OnLoad). bb-tracer's
 * test class path has no zstd-jni jar, so nothing clashes; the host reference loads the real jar
 * in a class loader of its own.
 */
public final class Zstd {
    private Zstd() {}

    public static native long compressBound(long srcSize);

    public static native boolean isError(long code);

    public static native String getErrorName(long code);

    /** ZSTD_c_nbWorkers on a compression context: worker threads (pthread_create) when &gt; 0. */
    public static native int setCompressionWorkers(long ctx, int workers);

    /** ZSTD_c_jobSize: bytes per worker job (zstd's minimum is 512 KiB). */
    public static native int setCompressionJobSize(long ctx, int jobSizeBytes);
}
