package dexfixtures;

/** Many live values at once: D8 needs more than 16 registers (4-bit forms no longer reach). */
public final class Registers {
    private Registers() {}

    static long many(long a, long b, int c) {
        long v0 = a + 1, v1 = a * 3, v2 = b - 7, v3 = a ^ b, v4 = a | c, v5 = b & 0xff, v6 = a << 3, v7 = b >> 2;
        long v8 = v0 + v1, v9 = v2 + v3, v10 = v4 + v5, v11 = v6 + v7, v12 = v0 * v2, v13 = v1 * v3;
        long v14 = v4 - v6, v15 = v5 - v7, v16 = v8 ^ v9, v17 = v10 ^ v11, v18 = v12 | v13, v19 = v14 | v15;
        long s = 0;
        for (int i = 0; i < c; i++) s += v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + i;
        return s + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v0 * v19 + v1 * v18 + v2 * v17;
    }

    static String run() {
        return Long.toString(many(12345L, 678L, 4));
    }
}
