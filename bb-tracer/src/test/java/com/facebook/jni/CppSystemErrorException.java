package com.facebook.jni;

/** Test-only twin of fbjni 0.7.0's {@code com.facebook.jni.CppSystemErrorException}. */
public class CppSystemErrorException extends CppException {
    int errorCode;

    public CppSystemErrorException(String message, int errorCode) {
        super(message);
        this.errorCode = errorCode;
    }

    public int getErrorCode() {
        return errorCode;
    }
}
