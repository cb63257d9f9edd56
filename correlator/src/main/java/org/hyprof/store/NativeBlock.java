package org.hyprof.store;

import java.util.Map;

/**
 * A native basic block of a hybrid run: where ({@code address} is the offset in the library, as
 * objdump shows it), in which function, its size in bytes, instructions and their categories
 * ({@code name=count,...} per execution), disassembly (a line per instruction), and how often the
 * calls of each native method executed it (probe id → executions).
 */
public record NativeBlock(String library, int index, long address, String function, int size, long instructions,
                          String categories, String disassembly, Map<Integer, Long> executionsByProbe) {
    /** Executions over all native methods. */
    public long executions() {
        long n = 0;
        for (long e : executionsByProbe.values()) n += e;
        return n;
    }
}
