package com.facebook.jni;

/** Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.HybridClassBase} (fbjni looks it up by name). */
public abstract class HybridClassBase extends HybridData {
}
