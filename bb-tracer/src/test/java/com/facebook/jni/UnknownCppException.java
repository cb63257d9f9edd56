package com.facebook.jni;

/** Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.UnknownCppException}. */
public class UnknownCppException extends CppException {
    public UnknownCppException() {
        super("Unknown");
    }

    public UnknownCppException(String message) {
        super(message);
    }
}
