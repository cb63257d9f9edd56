/* _start of the static executables of straddle.c for qemu-user: runs straddle_loop(N) and exits
   with its result & 0x7f (no libc). */
int straddle_loop(int n);
void _start(void) {
#ifdef __aarch64__
    register long x0 __asm__("x0") = straddle_loop(N) & 0x7f;
    register long x8 __asm__("x8") = 93; /* exit */
    __asm__ volatile("svc 0" : : "r"(x0), "r"(x8));
#else
    register int r0 __asm__("r0") = straddle_loop(N) & 0x7f;
    register int r7 __asm__("r7") = 1; /* exit */
    __asm__ volatile("svc 0" : : "r"(r0), "r"(r7));
#endif
    for (;;) { }
}
