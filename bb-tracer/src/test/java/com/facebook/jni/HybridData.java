package com.facebook.jni;

/**
 * Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.HybridData} (same name, fields and JNI
 * names; no SoLoader, no destructor thread): the Java half of a C++ object, whose pointer fbjni's
 * native code reads from {@link Destructor#mNativePointer}. The real libfbjni.so runs unmodified in
 * the emulator (bb-tracer FbjniTest).
 */
public class HybridData {
    private final Destructor mDestructor = new Destructor();

    /** The C++ object's pointer (0: none, or destroyed). */
    public static class Destructor {
        private volatile long mNativePointer;

        static native void deleteNative(long pointer);
    }
}
