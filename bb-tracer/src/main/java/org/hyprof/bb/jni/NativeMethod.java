package org.hyprof.bb.jni;

/**
 * A Java {@code native} method bound to native code: its probe id, declaring class, name and
 * descriptor, parameter and return types, and the library and address of the code (from
 * RegisterNatives or the {@code Java_…} symbol), with the symbol's name for reports.
 */
record NativeMethod(int id, Class<?> declaring, String name, String descriptor, boolean isStatic, Class<?>[] params,
                    Class<?> ret, NativeLibrary library, long address, String symbol) {
    /** {@code pkg.Class.name(desc)}, as reports name methods. */
    String displayName() {
        return declaring.getName() + "." + name + descriptor;
    }
}
