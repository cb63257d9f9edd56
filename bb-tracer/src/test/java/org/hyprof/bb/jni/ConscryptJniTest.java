package org.hyprof.bb.jni;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.conscrypt.NativeCrypto;
import org.conscrypt.NativeRef;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Userland;
import org.hyprof.bb.RealLibraries;
import org.hyprof.bb.Engines;

/**
 * conscrypt-android 2.5.2's unmodified libconscrypt_jni.so through its JNI methods, on Android
 * 6.0's bionic (issue 16): its JNI_OnLoad (FindClass, GetMethodID/GetFieldID, RegisterNatives)
 * runs against the test-only twins in {@code org.conscrypt}, then SHA-256 of 1 MiB through
 * {@code NativeCrypto.EVP_Digest*} and AES-128-GCM of it through {@code EVP_AEAD_CTX_seal} must
 * equal the JDK's.
 */
class ConscryptJniTest {
    static final Twin NATIVE_CRYPTO = new Twin(NativeCrypto.class);

    static Object call(HybridRuntime h, String method, Object... args) throws Throwable {
        return NATIVE_CRYPTO.call(h, NativeCrypto.class, method, args);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"arm64-v8a", "armeabi-v7a"})
    void sha256AndAesGcmOfOneMebibyteThroughNativeCrypto(String abi) throws Throwable {
        byte[] data = new byte[1 << 20];
        new Random(16).nextBytes(data);
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        Path lib = RealLibraries.conscrypt(abi);
        for (Engine engine : Engines.all()) {
            HybridRuntime h = new HybridRuntime(lib.getParent(), abi, null, engine, Userland.BIONIC, NATIVE_CRYPTO.keys::get);
            h.loadLibrary("conscrypt_jni");
            long md = (Long) call(h, "EVP_get_digestbyname", "sha256");
            assertNotEquals(0L, md, engine.id);
            NativeRef.EVP_MD_CTX ctx = new NativeRef.EVP_MD_CTX((Long) call(h, "EVP_MD_CTX_create"));
            assertEquals(1, call(h, "EVP_DigestInit_ex", ctx, md), engine.id);
            call(h, "EVP_DigestUpdate", ctx, data, 0, data.length);
            byte[] out = new byte[32];
            assertEquals(32, call(h, "EVP_DigestFinal_ex", ctx, out, 0), engine.id);
            assertEquals(expected, HexFormat.of().formatHex(out), engine.id);

            // AES-128-GCM of the same 1 MiB: ciphertext and tag equal the JDK's
            byte[] key = new byte[16], nonce = new byte[12], ad = "hyprof".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            new Random(17).nextBytes(key);
            new Random(18).nextBytes(nonce);
            javax.crypto.Cipher jdk = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            jdk.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(key, "AES"), new javax.crypto.spec.GCMParameterSpec(128, nonce));
            jdk.updateAAD(ad);
            byte[] sealedByJdk = jdk.doFinal(data);
            long aead = (Long) call(h, "EVP_aead_aes_128_gcm");
            byte[] sealed = new byte[data.length + 16];
            assertEquals(sealed.length, call(h, "EVP_AEAD_CTX_seal", aead, key, 16, sealed, 0, nonce, data, 0, data.length, ad), engine.id);
            assertArrayEquals(sealedByJdk, sealed, abi + " " + engine.id + ": AES-GCM");
        }
    }
}
