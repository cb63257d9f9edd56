package org.hyprof.bb.emu;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.hyprof.bb.NativeException;

/**
 * The emulated address space: every region mapped into the CPU, by name. The emulated memory is
 * capped by what is mapped (heap 256 MiB, stack 8 MiB, the library, the stub and trap pages);
 * {@link #check} refuses a range a library function is asked to touch unless it lies inside one
 * region, so a guest-sized request never becomes a host allocation or a write of gigabytes.
 */
public final class GuestMemory {
    private record Region(String name, long start, long size, boolean write) {}

    private final Backend cpu;
    private final TreeMap<Long, Region> regions = new TreeMap<>();

    GuestMemory(Backend cpu) {
        this.cpu = cpu;
    }

    /** Maps a region into the CPU and remembers it. */
    void map(String name, long start, long size, boolean read, boolean write, boolean exec) {
        cpu.map(start, size, read, write, exec);
        regions.put(start, new Region(name, start, size, write));
    }

    /**
     * Checks that [address, address + length) lies inside one mapped region (writable if
     * {@code write}); {@code what} names the call in the error, e.g. {@code memset(0x30000000, 0, 2147483632)}.
     */
    public void check(long address, long length, boolean write, String what) {
        if (!contains(address, length, write)) fail(address, length, write, what);
    }

    /** Whether [address, address + length) lies inside one mapped region (writable if {@code write}). */
    public boolean contains(long address, long length, boolean write) {
        if (length < 0) return false;
        if (length == 0) return true;
        Region r = regionAt(address);
        return r != null && length <= r.size - (address - r.start) && (!write || r.write);
    }

    /** Bytes from {@code address} to the end of its region (0 when it is not mapped). */
    long extent(long address) {
        Region r = regionAt(address);
        return r == null ? 0 : r.size - (address - r.start);
    }

    /** The region holding {@code address}, or null. */
    private Region regionAt(long address) {
        Map.Entry<Long, Region> e = regions.floorEntry(address);
        Region r = e == null ? null : e.getValue();
        return r == null || address - r.start >= r.size ? null : r;
    }

    private void fail(long address, long length, boolean write, String what) {
        if (length < 0) throw new NativeException(what + ": negative size " + length);
        Region r = regionAt(address);
        if (r == null)
            throw new NativeException(what + ": address 0x" + Long.toHexString(address) + " is not mapped");
        if (length > r.size - (address - r.start))
            throw new NativeException(String.format(Locale.ROOT, "%s: %,d bytes from 0x%x run past the end of the emulated %s (0x%x-0x%x, %,d bytes)",
                    what, length, address, r.name, r.start, r.start + r.size, r.size));
        if (write && !r.write) throw new NativeException(what + ": the emulated " + r.name + " at 0x" + Long.toHexString(address) + " is read-only");
    }
}
