package com.facebook.jni;

/** Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.CppException}: what a C++ exception becomes in Java. */
public class CppException extends RuntimeException {
    public CppException(String message) {
        super(message);
    }
}
