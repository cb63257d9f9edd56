package org.conscrypt;

/** Test-only twin of conscrypt's {@code org.conscrypt.NativeRef}: the {@code address} field native code reads. */
public abstract class NativeRef {
    final long address;

    NativeRef(long address) {
        this.address = address;
    }

    /** An {@code EVP_MD_CTX*}. */
    public static final class EVP_MD_CTX extends NativeRef {
        public EVP_MD_CTX(long address) {
            super(address);
        }
    }
}
