package org.conscrypt;

/** Test-only twin: conscrypt's JNI_OnLoad looks up {@code gets([B)I} on it. */
public class OpenSSLBIOInputStream extends java.io.FilterInputStream {
    OpenSSLBIOInputStream(java.io.InputStream in) {
        super(in);
    }

    public int gets(byte[] buffer) {
        return -1;
    }
}
