package com.github.luben.zstd;

/**
 * Test-only twin of zstd-jni 1.5.7-3's {@code ZstdCompressCtx}: its static natives on a context
 * pointer, with the real signatures (see {@link Zstd}).
 */
public final class ZstdCompressCtx {
    private ZstdCompressCtx() {}

    private static native long init();

    private static native void free(long ctx);

    private static native void setLevel0(long ctx, int level);

    /** Compressed size or a zstd error code ({@link Zstd#isError}); destination first, as zstd-jni's. */
    private static native long compressByteArray0(long ctx, byte[] dst, int dstOffset, int dstSize, byte[] src, int srcOffset, int srcSize);
}
