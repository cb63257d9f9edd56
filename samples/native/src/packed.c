/*
 * Pointer tables for packed relocations (bb-tracer RelocationsTest): linked with lld's
 * --pack-dyn-relocs=android+relr, its RELATIVE relocations are packed as DT_RELR and its symbol
 * relocations (GLOB_DAT/ABS to libc's functions and its own exports) as Android's APS2
 * (DT_ANDROID_RELA / DT_ANDROID_REL). Built -nostdlib without libc headers. Build: ../build.sh
 */
typedef __SIZE_TYPE__ size_t;
size_t strlen(const char *s);
int abs(int v);

int values[48];
#define P4(i) &values[i], &values[i + 1], &values[i + 2], &values[i + 3]
int *pointers[48] = {P4(0), P4(4), P4(8), P4(12), P4(16), P4(20), P4(24), P4(28), P4(32), P4(36), P4(40), P4(44)};
const char *words[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
size_t (*length_of)(const char *) = strlen;
int (*absolute)(int) = abs;
int *(*self_pointers)[48] = &pointers;

/* every pointer written through, the words measured through libc: 1128 + 38 + 7 = 1173 */
long packed_sum(void) {
    long sum = 0;
    for (int i = 0; i < 48; i++) *(*self_pointers)[i] = i;
    for (int i = 0; i < 48; i++) sum += values[i];
    for (int i = 0; i < 8; i++) sum += (long) length_of(words[i]);
    return sum + absolute(-7);
}
