package org.hyprof.runtime;

/**
 * The marker parameter of an outlined body (JVM only): a method with nested loops is rewritten as a
 * small wrapper that keeps the method's name, descriptor and probe (its clock reads) and calls a
 * {@code private static synthetic} body of the same name whose last parameter is this type (always
 * null): with {@code invokestatic} while the activation is not timed (the JIT inlines the body as
 * it would have the method's own code) and while it is timed through {@link ProbeSites#body}, a
 * call the JIT keeps. Why: a call at a method's entry, even the clock
 * read, makes HotSpot's C2 reload spilled arguments inside the method's hot loops (sparse matmult
 * 0.76–0.83 of plain with its probe on); with the loops in a compiled unit of their own they run
 * as plain (0.97–0.99). The marker only keeps the body's descriptor apart from every other
 * method's, and gives stack traces the method's own name.
 */
@JvmOnly
public final class Outlined {
    private Outlined() {}
}
