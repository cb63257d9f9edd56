/*
 * Thread-local storage and ifuncs: the relocations a loader must apply for them (bb-tracer
 * RelocationsTest; --userland bionic for the threads). Built -nostdlib without libc headers
 * (bionic's pthread ABI is declared here); the same code linked statically against glibc runs
 * under qemu-user for the reference values (../reference/relocs-qemu.sh).
 *
 *   tls_counter, tls_zero  general-dynamic: R_AARCH64_TLSDESC / R_ARM_TLS_DTPMOD32 + DTPOFF32
 *                          (__tls_get_addr); .tdata and .tbss
 *   ie_counter             initial-exec: R_AARCH64_TLS_TPREL64 / R_ARM_TLS_TPOFF32
 *   trad_counter           relocs_trad.c, AArch64 -mtls-dialect=trad: R_AARCH64_TLS_DTPMOD64 + DTPREL64
 *   add_pick               an ifunc called through the PLT and through a data pointer:
 *                          R_AARCH64_IRELATIVE / R_ARM_IRELATIVE, its resolver run once at load
 * Build: ../build.sh
 */
typedef long pthread_t;
int pthread_create(pthread_t *t, const void *attr, void *(*fn)(void *), void *arg);
int pthread_join(pthread_t t, void **result);

__thread long tls_counter = 5;
__thread long tls_zero;
__thread long ie_counter __attribute__((tls_model("initial-exec"))) = 7;
long trad_bump(long n);

/* n rounds on the calling thread; its three counters (and trad_counter) in one number */
long tls_bump(long n) {
    long trad = 0;
    for (long i = 0; i < n; i++) {
        tls_counter += 1;
        tls_zero += 2;
        ie_counter += 3;
        trad = trad_bump(1);
    }
    return tls_counter + 100 * tls_zero + 10000 * ie_counter + 1000000 * trad;
}

static void *worker(void *arg) {
    return (void *) tls_bump((long) arg);
}

/*
 * The calling thread bumps n times, two threads 2n and 3n times each, then the caller n times
 * more: each sees its own counters from their initial values. Their three results in one number
 * (each below 10^8 for n < 10), or negative: which step failed.
 */
long tls_threads(long n) {
    pthread_t a, b;
    void *ra, *rb;
    long mine = tls_bump(n);
    if (pthread_create(&a, 0, worker, (void *) (2 * n)) != 0) return -1;
    if (pthread_create(&b, 0, worker, (void *) (3 * n)) != 0) return -2;
    if (pthread_join(a, &ra) != 0 || pthread_join(b, &rb) != 0) return -3;
    long again = tls_bump(n);
    if (again == mine) return -4;
    return (long) ra % 100000000 + (long) rb % 100000000 * 3 + again % 100000000 * 7;
}

static int resolver_runs;
static long mode = 2;

static long add_plain(long a, long b) { return a + b; }
static long add_scaled(long a, long b) { return mode * 10 * (a + b); }

/* chooses from relocated data: mode is 2, so add_scaled */
static void *resolve_add(void) {
    resolver_runs++;
    return mode == 2 ? (void *) add_scaled : (void *) add_plain;
}

long add_pick(long a, long b) __attribute__((ifunc("resolve_add"), visibility("hidden")));
long (*const add_pointer)(long, long) = add_pick;

/* add_pick(2, 3) called directly and through the pointer, and 1 if the resolver ran */
long ifunc_check(void) {
    return add_pick(2, 3) * 1000 + add_pointer(4, 5) * 10 + (resolver_runs > 0);
}

/* how often the resolver ran: a dynamic loader runs it once per IRELATIVE relocation (2 here) */
long ifunc_resolver_runs(void) {
    return resolver_runs;
}
