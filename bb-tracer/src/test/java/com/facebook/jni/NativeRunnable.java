package com.facebook.jni;

/** Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.NativeRunnable} (same name, field and JNI name). */
public class NativeRunnable implements Runnable {
    private final HybridData mHybridData;

    public NativeRunnable(HybridData hybridData) {
        this.mHybridData = hybridData;
    }

    @Override
    public native void run();
}
