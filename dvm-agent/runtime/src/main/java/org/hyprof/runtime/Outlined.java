package org.hyprof.runtime;

/**
 * The marker parameter of an outlined body (JVM only): a method with nested loops gets a
 * {@code private static synthetic} body of the same name whose last parameter is this type (always
 * null), holding the method's code again. The method keeps its name, descriptor, probe (its clock
 * reads) and its own code, which runs while the activation is not timed; a timed activation calls
 * the body instead, by a plain {@code invokestatic} the JIT keeps as a call (the body is padded past
 * the size C2 inlines). Why: a call at a method's entry, even the clock read, makes HotSpot's C2
 * reload spilled arguments inside the method's hot loops (sparse matmult 0.76–0.83 of plain with
 * its probe on); with the loops in a compiled unit of their own they run as plain (0.97–0.99).
 * The marker only keeps the body's descriptor apart from every other method's, and gives stack
 * traces the method's own name.
 */
@JvmOnly
public final class Outlined {
    private Outlined() {}
}
