package org.hyprof.store;

import java.util.List;
import java.util.Map;

/**
 * One stored run of a single native function ({@code hyprof native LIB --call SYMBOL -o S.db}):
 * what was called, on which ABI, CPU profile and engine, what it returned, and what it executed
 * with the profile's estimates (device time in ns, energy in pJ), per function and for its
 * hottest blocks. The emulator's own wall time is {@code emulatedNanos}.
 */
public record NativeRunRecord(long runId, String library, String symbol, String args, String abi, String cpuProfile,
                              String engine, long returnValue, long blocks, long instructions, long cycles, long estNanos,
                              long energyPicojoules, long emulatedNanos, Map<String, Long> categories,
                              long recordedWallMillis, List<Function> functions, List<Block> hotBlocks) {
    /** Executed instructions and their estimates, per function of the library. */
    public record Function(String name, long instructions, long cycles, long estNanos, long energyPicojoules) {}

    /**
     * A block ({@code address}: its offset in the library, shown as
     * {@link org.hyprof.runtime.chunk.NativeBlocksChunk#blockId}), how often it ran, and its disassembly (one
     * instruction per line).
     */
    public record Block(long address, String function, long executions, long instructions, long cycles, String disassembly) {}

    /** A short label: {@code libkernels.so kernel_fft(256, 4) on cortex-a9}. */
    public String label() {
        String lib = library.substring(library.lastIndexOf('/') + 1);
        return lib + " " + symbol + "(" + args + ")";
    }
}
