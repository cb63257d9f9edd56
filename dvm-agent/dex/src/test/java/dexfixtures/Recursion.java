package dexfixtures;

/** Plain and mutual recursion. */
public final class Recursion {
    private Recursion() {}

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static boolean even(int n) {
        return n == 0 || odd(n - 1);
    }

    static boolean odd(int n) {
        return n != 0 && even(n - 1);
    }

    static String run() {
        return fib(15) + " " + even(10) + " " + odd(7);
    }
}
