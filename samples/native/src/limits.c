/*
 * Native code that misbehaves, for bb-tracer's limit tests (LimitsTest): a call that never
 * returns, library calls with sizes far beyond the emulated memory, and a long log message full of
 * control characters. Build: ../build.sh
 */
typedef __SIZE_TYPE__ size_t;
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int __android_log_print(int prio, const char *tag, const char *fmt, ...);

/* An infinite loop: one branch to itself ("b ."). */
void spin(void) {
    __asm__ volatile("1: b 1b");
}

/* memset(d, c, n) as the app asked for it (-fno-builtin keeps the call). */
void *fill(void *d, int c, size_t n) {
    return memset(d, c, n);
}

void *copy(void *d, const void *s, size_t n) {
    return memcpy(d, s, n);
}

static char message[65536];

/* Logs an n-byte message (n < 65536) with an ESC and a newline every 64 bytes. */
int log_noise(int n) {
    if (n < 1 || n > (int) sizeof message) n = sizeof message;
    for (int i = 0; i < n - 1; i++) message[i] = i % 64 == 0 ? '\033' : i % 64 == 1 ? '\n' : (char) ('a' + i % 26);
    message[n - 1] = 0;
    return __android_log_print(4, "limits", message);
}
