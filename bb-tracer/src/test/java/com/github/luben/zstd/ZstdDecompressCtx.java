package com.github.luben.zstd;

/**
 * Test-only twin of zstd-jni 1.5.7-3's {@code ZstdDecompressCtx}: its static natives on a
 * context pointer, with the real signatures (see {@link Zstd}).
 */
public final class ZstdDecompressCtx {
    private ZstdDecompressCtx() {}

    private static native long init();

    private static native void free(long ctx);

    /** Decompressed size or a zstd error code ({@link Zstd#isError}); destination first, as zstd-jni's. */
    private static native long decompressByteArray0(long ctx, byte[] dst, int dstOffset, int dstSize, byte[] src, int srcOffset, int srcSize);
}
