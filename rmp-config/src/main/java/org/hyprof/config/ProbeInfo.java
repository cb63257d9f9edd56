package org.hyprof.config;

/**
 * One probe of the manifest. Method probes cover a method's entry and all its exits; loop probes
 * cover one loop ({@link #ownerId} is the enclosing method's probe id).
 *
 * @param id          stable probe id (ids start at 1; 0 is reserved by the runtime)
 * @param loop        true for a loop probe
 * @param resolution  resolution class
 * @param className   dotted class name, e.g. {@code com.x.A$B}
 * @param methodName  method name, e.g. {@code run} or {@code <init>}
 * @param descriptor  JVM method descriptor, e.g. {@code (I)J}
 * @param ownerId     for loops, the enclosing method's probe id; -1 for methods
 * @param loopIndex   for loops, their index within the method (in code order); -1 for methods
 * @param line        first source line when known, else -1
 * @param source      source file name when known, else empty
 */
public record ProbeInfo(int id, boolean loop, Resolution resolution, String className, String methodName,
                        String descriptor, int ownerId, int loopIndex, int line, String source) {

    /** The method this probe belongs to, as the JVM names it: {@code pkg.Class.name(descriptor)} (an identity, not a report name). */
    public String methodKey() {
        return className + "." + methodName + descriptor;
    }

    /**
     * Report name in Java's spelling: {@code pkg.Class.name(int, double[])}, for loops
     * {@code …#loop@LINE} or {@code …#loopK} (see {@link MethodNames}).
     */
    public String displayName() {
        return MethodNames.probe(this, MethodNames.Style.JAVA);
    }

    /** Report name in {@code style} (see {@link MethodNames}). */
    public String displayName(MethodNames.Style style) {
        return MethodNames.probe(this, style);
    }

    /** {@code method} or {@code loop}. */
    public String kindLabel() {
        return loop ? "loop" : "method";
    }
}
