package com.facebook.jni;

/** Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.ThreadScopeSupport} (same JNI names; no SoLoader). */
public class ThreadScopeSupport {
    private static void runStdFunction(long functionPointer) {
        runStdFunctionImpl(functionPointer);
    }

    private static native void runStdFunctionImpl(long functionPointer);
}
