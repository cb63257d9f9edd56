package demo;

/** Native code calling a JNI function bb-tracer does not emulate (NewDirectByteBuffer): the error path. */
public final class Unsupported {
    static {
        System.loadLibrary("hyprofdemo");
    }

    public static native Object directBuffer();
}
