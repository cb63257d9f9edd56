package org.conscrypt;

/** Test-only twin: conscrypt's JNI_OnLoad keeps a reference to this class (its methods are looked up only when used). */
final class CryptoUpcalls {
    private CryptoUpcalls() {}
}
