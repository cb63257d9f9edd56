package com.tencent.mmkv;

import java.util.ArrayList;
import java.util.List;

/**
 * Test-only twin of mmkv 1.3.9's {@code com.tencent.mmkv.MMKV} (the real class needs Android's
 * framework): the same class name, the native methods the tests call with the real ones' JNI
 * signatures (libmmkv.so's {@code JNI_OnLoad} registers its functions under them), the
 * {@code nativeHandle} field and the static callbacks it looks up. The native library itself is
 * mmkv's, unmodified; its methods run in bb-tracer (MmkvJniTest).
 */
public final class MMKV {
    public static final int SINGLE_PROCESS_MODE = 1;
    /** mmkv's log levels: debug 0, info 1, warning 2, error 3, none 4. */
    public static final int LOG_INFO = 1;
    /** What libmmkv.so logged through {@link #mmkvLogImp} (log redirection on). */
    public static final List<String> LOG = new ArrayList<>();

    private final long nativeHandle;

    private MMKV(long handle) {
        nativeHandle = handle;
    }

    /** The instance whose native methods act on {@code handle} (what getMMKVWithID returned). */
    public static MMKV of(long handle) {
        return new MMKV(handle);
    }

    public static native void onExit();

    public native void close();

    public native String mmapID();

    private static native void jniInitialize(String rootDir, String cacheDir, int logLevel, boolean wantLogReDirecting);

    private static native long getMMKVWithID(String mmapID, int mode, String cryptKey, String rootPath, long expectedCapacity);

    private native boolean encodeString(long handle, String key, String value);

    private native String decodeString(long handle, String key, String defaultValue);

    private native boolean encodeInt(long handle, String key, int value);

    private native int decodeInt(long handle, String key, int defaultValue);

    private native long count(long handle, boolean filterExpire);

    private native long actualSize(long handle);

    private native boolean containsKey(long handle, String key);

    // called by libmmkv.so (its JNI_OnLoad looks them up)

    private static int onMMKVCRCCheckFail(String mmapID) {
        LOG.add("CRC check failed: " + mmapID);
        return 0; // OnErrorDiscard
    }

    private static int onMMKVFileLengthError(String mmapID) {
        LOG.add("file length error: " + mmapID);
        return 0;
    }

    private static void mmkvLogImp(int level, String file, int line, String function, String message) {
        synchronized (LOG) {
            LOG.add(level + " " + file + ":" + line + " " + function + ": " + message);
        }
    }

    private static void onContentChangedByOuterProcess(String mmapID) {
    }
}
