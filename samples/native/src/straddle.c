/*
 * A hot loop across a 1 KiB boundary that is not a 4 KiB one (issue 17): Unicorn's 32-bit ARM
 * target ends translation blocks at 1 KiB pages, qemu-user's at 4 KiB, and bb-tracer must count
 * the program's blocks either way. straddle_pad (4 KiB-aligned) pushes straddle_loop to where its
 * loop crosses offset 0x1400: PAD is chosen per instruction set by build.sh (ARM: between two
 * instructions; Thumb: a 32-bit instruction across the boundary). The same code is linked into
 * static executables (with straddle_start.c) whose block counts a TCG plugin takes under
 * qemu-user: reference/straddle-qemu.sh, reference/straddle-qemu.txt. Integer only, no calls.
 */
#ifndef PAD
#define PAD 0
#endif
#define STR_(x) #x
#define STR(x) STR_(x)
#ifdef __aarch64__
#define RETURN "ret"
#else
#define RETURN "bx lr"
#endif

__attribute__((aligned(4096), noinline, used)) void straddle_pad(void) {
    __asm__ volatile(RETURN "\n\t.space " STR(PAD) "\n" ::: "memory");
}

int straddle_loop(int n) {
    unsigned a = 12345u, b = 1, c = 2, d = 3;
    for (int i = 0; i < n; i++) {
        a = a * 1103515245u + 12345u;
        b += a >> 5; c ^= b << 3; d += c * 9u; a ^= d >> 7;
        b = (b << 7) | (b >> 25); c += a ^ d; d ^= b + c; a += c >> 3; b ^= d * 5u;
        if (a & 0x100u) c += 77u; else d -= 33u;
    }
    return (int) ((a ^ b ^ c ^ d) & 0x7fffffff);
}
