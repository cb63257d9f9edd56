/*
 * libhyprofdemo.so: the native half of hyprof's hybrid demo (samples/java, package demo). Every
 * native method of demo.NativeKernels is here, written against the real jni.h, and each has a
 * Java twin in demo.JavaKernels computing the same result, so a hybrid run can compare Java with
 * JNI (as the AndroProf thesis did) and tests can check that emulated results equal Java's.
 *
 * What it exercises of JNI: primitive arguments of every type, arrays (elements, regions,
 * critical, new arrays), strings (modified UTF-8), objects and fields, calls back into Java
 * (Java -> native -> Java, and native -> Java -> native), exceptions thrown by native code,
 * RegisterNatives from JNI_OnLoad, GetEnv. demo.Unsupported calls a JNI function bb-tracer does not
 * emulate (NewDirectByteBuffer), for the error path.
 *
 * No libc headers (the armeabi-v7a build uses the softfp ABI, for which Debian's armhf headers
 * have no variant): the few libc functions used are declared here and bound to bb-tracer's stubs
 * when emulated. The kernels come from kernels.c, linked into the same library. Build: ../build.sh
 */
#include <jni.h>

typedef __SIZE_TYPE__ size_t;
void *malloc(size_t size);
void free(void *p);

double kernel_fft(int n, int cycles);
double kernel_sparse(int m, int nz, int cycles);
int int_kernel(int n);

/* demo.NativeKernels.fft(II)D: SciMark FFT (forward + inverse), as JavaKernels.fft */
JNIEXPORT jdouble JNICALL Java_demo_NativeKernels_fft(JNIEnv *env, jclass cls, jint n, jint cycles) {
    return kernel_fft(n, cycles);
}

/* demo.NativeKernels.sparse(III)D: SciMark sparse matrix-vector product */
JNIEXPORT jdouble JNICALL Java_demo_NativeKernels_sparse(JNIEnv *env, jclass cls, jint m, jint nz, jint cycles) {
    return kernel_sparse(m, nz, cycles);
}

/* demo.NativeKernels.sor([DII)D: SciMark SOR in place on a Java array (elements copied in and back) */
JNIEXPORT jdouble JNICALL Java_demo_NativeKernels_sor(JNIEnv *env, jclass cls, jdoubleArray grid, jint n, jint cycles) {
    if ((*env)->GetArrayLength(env, grid) < n * n) {
        jclass iae = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        (*env)->ThrowNew(env, iae, "grid smaller than n*n");
        return 0;
    }
    jdouble *g = (*env)->GetDoubleArrayElements(env, grid, 0);
    double omega = 1.25, o4 = omega * 0.25, o1 = 1.0 - omega;
    for (int p = 0; p < cycles; p++)
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                g[i * n + j] = o4 * (g[(i - 1) * n + j] + g[(i + 1) * n + j] + g[i * n + j - 1] + g[i * n + j + 1])
                        + o1 * g[i * n + j];
    double sum = 0;
    for (int i = 0; i < n * n; i++) sum += g[i];
    (*env)->ReleaseDoubleArrayElements(env, grid, g, 0);
    return sum;
}

/* demo.NativeKernels.intKernel(I)I: bound by RegisterNatives in JNI_OnLoad, not by its name */
static jint native_int_kernel(JNIEnv *env, jclass cls, jint n) {
    return int_kernel(n);
}

/* demo.NativeKernels.checksum([B)J (an instance method): FNV-1a over the bytes, read by region */
JNIEXPORT jlong JNICALL Java_demo_NativeKernels_checksum(JNIEnv *env, jobject self, jbyteArray data) {
    jsize n = (*env)->GetArrayLength(env, data);
    jbyte buf[64];
    unsigned long long h = 14695981039346656037ULL; /* FNV-1a 64 offset basis */
    for (jsize off = 0; off < n; off += 64) {
        jsize len = n - off < 64 ? n - off : 64;
        (*env)->GetByteArrayRegion(env, data, off, len, buf);
        for (jsize i = 0; i < len; i++) {
            h ^= (unsigned char) buf[i];
            h *= 1099511628211ULL;
        }
    }
    return (jlong) h;
}

/* demo.NativeKernels.describe(Ljava/lang/String;I)Ljava/lang/String;: "<name>#<n>" */
JNIEXPORT jstring JNICALL Java_demo_NativeKernels_describe(JNIEnv *env, jclass cls, jstring name, jint n) {
    const char *s = (*env)->GetStringUTFChars(env, name, 0);
    jsize len = (*env)->GetStringUTFLength(env, name);
    char *out = malloc(len + 16);
    int k = 0;
    for (int i = 0; i < len; i++) out[k++] = s[i];
    out[k++] = '#';
    char digits[12];
    int d = 0;
    unsigned v = n < 0 ? -(unsigned) n : (unsigned) n;
    do { digits[d++] = (char) ('0' + v % 10); v /= 10; } while (v);
    if (n < 0) out[k++] = '-';
    while (d) out[k++] = digits[--d];
    out[k] = 0;
    (*env)->ReleaseStringUTFChars(env, name, s);
    jstring r = (*env)->NewStringUTF(env, out);
    free(out);
    return r;
}

/* demo.NativeKernels.mix(IJFDSBCZ)D: one argument of every primitive type */
JNIEXPORT jdouble JNICALL Java_demo_NativeKernels_mix(JNIEnv *env, jclass cls, jint i, jlong l, jfloat f, jdouble d,
                                                      jshort s, jbyte b, jchar c, jboolean z) {
    return i * 3.0 + (double) l * 0.5 + f * 2.0f + d - s + b * 7 + c * 11 + (z ? 1000.0 : -1000.0);
}

/* demo.NativeKernels.sumCallbacks(Ldemo/Callback;I)I: Σ cb.value(k) for k < n (Java -> native -> Java) */
JNIEXPORT jint JNICALL Java_demo_NativeKernels_sumCallbacks(JNIEnv *env, jclass cls, jobject cb, jint n) {
    jclass k = (*env)->GetObjectClass(env, cb);
    jmethodID value = (*env)->GetMethodID(env, k, "value", "(I)I");
    if (value == 0) return -1; /* NoSuchMethodError pending */
    jint sum = 0;
    for (jint i = 0; i < n; i++) {
        sum += (*env)->CallIntMethod(env, cb, value, i);
        if ((*env)->ExceptionCheck(env)) return -1;
    }
    return sum;
}

/* demo.NativeKernels.nested(I)I: native -> Java (NativeKernels.nestedJava) -> native, depth times */
JNIEXPORT jint JNICALL Java_demo_NativeKernels_nested(JNIEnv *env, jclass cls, jint depth) {
    if (depth <= 0) return 1;
    jmethodID back = (*env)->GetStaticMethodID(env, cls, "nestedJava", "(I)I");
    return (*env)->CallStaticIntMethod(env, cls, back, depth - 1) * 2;
}

/* demo.NativeKernels.histogram([II)[I: counts of values % buckets, in a new array */
JNIEXPORT jintArray JNICALL Java_demo_NativeKernels_histogram(JNIEnv *env, jclass cls, jintArray values, jint buckets) {
    jsize n = (*env)->GetArrayLength(env, values);
    jint *v = (*env)->GetPrimitiveArrayCritical(env, values, 0);
    jint *h = malloc(sizeof(jint) * buckets);
    for (int i = 0; i < buckets; i++) h[i] = 0;
    for (jsize i = 0; i < n; i++) {
        int b = v[i] % buckets;
        h[b < 0 ? b + buckets : b]++;
    }
    (*env)->ReleasePrimitiveArrayCritical(env, values, v, JNI_ABORT);
    jintArray r = (*env)->NewIntArray(env, buckets);
    (*env)->SetIntArrayRegion(env, r, 0, buckets, h);
    free(h);
    return r;
}

/* demo.NativeKernels.translate(Ldemo/Point;II)V: fields of a Java object */
JNIEXPORT void JNICALL Java_demo_NativeKernels_translate(JNIEnv *env, jclass cls, jobject p, jint dx, jint dy) {
    jclass k = (*env)->GetObjectClass(env, p);
    jfieldID x = (*env)->GetFieldID(env, k, "x", "I"), y = (*env)->GetFieldID(env, k, "y", "I");
    (*env)->SetIntField(env, p, x, (*env)->GetIntField(env, p, x) + dx);
    (*env)->SetIntField(env, p, y, (*env)->GetIntField(env, p, y) + dy);
}

/* demo.NativeKernels.check(I)I: throws IllegalArgumentException from native code when x < 0 */
JNIEXPORT jint JNICALL Java_demo_NativeKernels_check(JNIEnv *env, jclass cls, jint x) {
    if (x < 0) {
        jclass iae = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        (*env)->ThrowNew(env, iae, "negative value from native code");
        return 0;
    }
    return x;
}

/* demo.Unsupported.directBuffer()Ljava/lang/Object;: a JNI function bb-tracer does not emulate */
JNIEXPORT jobject JNICALL Java_demo_Unsupported_directBuffer(JNIEnv *env, jclass cls) {
    static char buf[16];
    return (*env)->NewDirectByteBuffer(env, buf, sizeof buf);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_6) != JNI_OK) return JNI_ERR;
    jclass k = (*env)->FindClass(env, "demo/NativeKernels");
    if (k == 0) return JNI_ERR;
    static const JNINativeMethod methods[] = {{"intKernel", "(I)I", (void *) native_int_kernel}};
    if ((*env)->RegisterNatives(env, k, methods, 1) != 0) return JNI_ERR;
    return JNI_VERSION_1_6;
}
