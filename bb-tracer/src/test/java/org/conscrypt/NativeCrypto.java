package org.conscrypt;

/**
 * Test-only twin of conscrypt's {@code org.conscrypt.NativeCrypto}: the same JNI class and method
 * names and descriptors for the native methods the tests drive, so conscrypt-android's unmodified
 * libconscrypt_jni.so binds to them through its own {@code RegisterNatives}. (conscrypt's Java side
 * needs Android classes the JVM lacks.) Never loaded natively: the tests call the methods through
 * {@code HybridRuntime.invoke}, as the instrumented bridge would.
 */
public final class NativeCrypto {
    private NativeCrypto() {}

    public static native long EVP_get_digestbyname(String name);

    public static native long EVP_MD_CTX_create();

    public static native void EVP_MD_CTX_destroy(long ctx);

    public static native int EVP_DigestInit_ex(NativeRef.EVP_MD_CTX ctx, long evpMd);

    public static native void EVP_DigestUpdate(NativeRef.EVP_MD_CTX ctx, byte[] buffer, int offset, int length);

    public static native int EVP_DigestFinal_ex(NativeRef.EVP_MD_CTX ctx, byte[] hash, int offset);

    public static native long EVP_aead_aes_128_gcm();

    /** Seals {@code in} into {@code out} (ciphertext then tag); returns the bytes written. */
    public static native int EVP_AEAD_CTX_seal(long evpAead, byte[] key, int tagLengthInBytes, byte[] out, int outOffset,
                                               byte[] nonce, byte[] in, int inOffset, int inLength, byte[] ad)
            throws javax.crypto.ShortBufferException, javax.crypto.BadPaddingException;

    /** What conscrypt's JNI_OnLoad looks up on it (method IDs only; never called here). */
    public interface SSLHandshakeCallbacks {
        void verifyCertificateChain(byte[][] certificateChain, String authMethod) throws java.security.cert.CertificateException;

        void clientCertificateRequested(byte[] keyTypes, int[] signatureAlgs, byte[][] asn1DerEncodedX500Principals);

        int clientPSKKeyRequested(String identityHint, byte[] identity, byte[] key);

        int serverPSKKeyRequested(String identityHint, String identity, byte[] key);

        void onSSLStateChange(int type, int val);

        void onNewSessionEstablished(long sslSessionNativePtr);

        long serverSessionRequested(byte[] id);

        String serverCertificateRequested();

        void onSslHandshakeComplete();
    }
}
