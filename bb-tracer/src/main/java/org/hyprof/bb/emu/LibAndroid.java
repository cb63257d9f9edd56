package org.hyprof.bb.emu;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * A minimal stand-in for Android's {@code libandroid.so} (the NDK's assets, windows, looper
 * APIs): there is no APK, no surface and no looper in the emulator, so the functions real JNI
 * libraries import most answer as Android does when there is nothing to find — an asset manager
 * that opens no asset, no native window, error codes — and native code takes its own fallback
 * path. Any other function of libandroid fails when called, in one line naming it
 * ({@code libfoo.so called AConfiguration_new, which hyprof's libandroid.so stand-in does not
 * have}). Java, not counted (hyprof runs no code of the platform's library). Both userlands.
 *
 * <ul>
 * <li>{@code AAssetManager_fromJava}: a manager (a token in the heap: code often checks for null);
 * {@code AAssetManager_open}: null (no such asset); {@code AAssetManager_openDir}: an empty
 * directory ({@code AAssetDir_getNextFileName} null); {@code AAsset_read}, {@code AAsset_seek(64)},
 * {@code AAsset_openFileDescriptor(64)}: -1; {@code AAsset_getLength(64)},
 * {@code AAsset_getRemainingLength(64)}, {@code AAsset_isAllocated}: 0; {@code AAsset_getBuffer}:
 * null; {@code AAsset_close}, {@code AAssetDir_close}, {@code AAssetDir_rewind}: nothing.
 * <li>{@code ANativeWindow_fromSurface}: null (no window); {@code ANativeWindow_getWidth/
 * getHeight/getFormat/setBuffersGeometry/lock/unlockAndPost}: {@code -EINVAL};
 * {@code ANativeWindow_acquire/release}: nothing.
 * <li>{@code ALooper_forThread}: null (no looper on this thread).
 * </ul>
 */
final class LibAndroid {
    private LibAndroid() {}

    /** The functions the stand-in answers. */
    static final Set<String> FUNCTIONS = Set.of("AAssetManager_fromJava", "AAssetManager_open", "AAssetManager_openDir",
            "AAssetDir_getNextFileName", "AAssetDir_close", "AAssetDir_rewind", "AAsset_read", "AAsset_seek", "AAsset_seek64",
            "AAsset_getLength", "AAsset_getLength64", "AAsset_getRemainingLength", "AAsset_getRemainingLength64",
            "AAsset_getBuffer", "AAsset_isAllocated", "AAsset_openFileDescriptor", "AAsset_openFileDescriptor64", "AAsset_close",
            "ANativeWindow_fromSurface", "ANativeWindow_acquire", "ANativeWindow_release", "ANativeWindow_getWidth",
            "ANativeWindow_getHeight", "ANativeWindow_getFormat", "ANativeWindow_setBuffersGeometry", "ANativeWindow_lock",
            "ANativeWindow_unlockAndPost", "ALooper_forThread");

    /** How libandroid's C API names its functions ({@code AAsset_read}, {@code AChoreographer_getInstance}). */
    private static final Pattern API = Pattern.compile("A[A-Z][A-Za-z0-9]*_[A-Za-z0-9_]+");

    private static final int EINVAL = 22;

    /** Whether an import looks like one of libandroid's functions (for the error of one the stand-in lacks). */
    static boolean looksLikeItsFunction(String name) {
        return API.matcher(name).matches();
    }

    static void register(Stubs s) {
        long[] manager = {0};
        s.register("AAssetManager_fromJava", c -> {
            if (manager[0] == 0) manager[0] = c.heap().malloc(16); // one for the process, as Android's is per Java object but never null
            c.returnInt(manager[0]);
        });
        for (String n : new String[] {"AAssetManager_open", "AAssetDir_getNextFileName", "AAsset_getBuffer", "ANativeWindow_fromSurface", "ALooper_forThread"})
            s.register(n, c -> c.returnInt(0));
        s.register("AAssetManager_openDir", c -> c.returnInt(c.heap().malloc(16)));
        s.register("AAssetDir_close", c -> {
            long d = c.args.nextInt();
            if (c.heap().sizeOf(d) >= 0) c.heap().free(d);
        });
        for (String n : new String[] {"AAssetDir_rewind", "AAsset_close", "ANativeWindow_acquire", "ANativeWindow_release"})
            s.register(n, c -> { });
        for (String n : new String[] {"AAsset_read", "AAsset_openFileDescriptor"}) s.register(n, c -> c.returnInt(-1));
        s.register("AAsset_seek", c -> c.returnInt(-1));                 // off_t: a register
        s.register("AAsset_seek64", c -> c.returnLong(-1));              // off64_t: r0:r1 on ARM
        s.register("AAsset_openFileDescriptor64", c -> c.returnInt(-1));
        s.register("AAsset_getLength", c -> c.returnInt(0));
        s.register("AAsset_getRemainingLength", c -> c.returnInt(0));
        s.register("AAsset_getLength64", c -> c.returnLong(0));
        s.register("AAsset_getRemainingLength64", c -> c.returnLong(0));
        s.register("AAsset_isAllocated", c -> c.returnInt(0));
        for (String n : new String[] {"ANativeWindow_getWidth", "ANativeWindow_getHeight", "ANativeWindow_getFormat",
                "ANativeWindow_setBuffersGeometry", "ANativeWindow_lock", "ANativeWindow_unlockAndPost"})
            s.register(n, c -> c.returnInt(-EINVAL));
    }
}
