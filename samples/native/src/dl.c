/*
 * The dynamic linker's queries that C++ exception unwinders make (bb-tracer DlTest; --userland
 * bionic): dl_iterate_phdr over every loaded library, dladdr, and on ARM dl_unwind_find_exidx.
 * Built -nostdlib without libc headers (bionic's structures are declared here). Build: ../build.sh
 */
typedef __SIZE_TYPE__ size_t;
typedef unsigned long addr_t;

struct dl_phdr_info {      /* Android 6.0's: addr, name, phdr, phnum */
    addr_t addr;
    const char *name;
    const void *phdr;
    unsigned short phnum;
};
typedef struct { const char *fname; void *fbase; const char *sname; void *saddr; } Dl_info;

int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *data);
int dladdr(const void *addr, Dl_info *info);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

#if defined(__aarch64__)
struct phdr { unsigned int type, flags; unsigned long offset, vaddr, paddr, filesz, memsz, align; };
#else
struct phdr { unsigned int type, offset, vaddr, paddr, filesz, memsz, flags, align; };
const void *dl_unwind_find_exidx(const void *pc, int *count);
#endif

struct walk { long libraries, loads, stop_after, found_self, info_size; };

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
    struct walk *w = data;
    const struct phdr *p = info->phdr;
    w->libraries++;
    w->info_size = (long) size;
    for (int i = 0; i < info->phnum; i++) {
        if (p[i].type == 1) w->loads++;
        /* the library holding this very function: its PT_LOAD that is executable covers it */
        addr_t lo = info->addr + p[i].vaddr, hi = lo + p[i].memsz, self = (addr_t) &visit;
        if (p[i].type == 1 && (p[i].flags & 1) && self >= lo && self < hi && strcmp(info->name, "libdl-test.so") == 0) w->found_self++;
    }
    return w->stop_after != 0 && w->libraries == w->stop_after ? 7 : 0;
}

/* libraries seen * 10000 + PT_LOADs seen * 100 + found this library by address; stop_after: stop there (result 7) */
long phdr_walk(long stop_after) {
    struct walk w = {0, 0, stop_after, 0, 0};
    int r = dl_iterate_phdr(visit, &w);
    if (stop_after != 0 && r != 7) return -1;
    if (stop_after == 0 && r != 0) return -2;
    return w.libraries * 10000 + w.loads * 100 + w.found_self;
}

/* the size of struct dl_phdr_info dl_iterate_phdr passed */
long phdr_info_size(void) {
    struct walk w = {0, 0, 1, 0, 0};
    dl_iterate_phdr(visit, &w);
    return w.info_size;
}

/* dladdr of a point inside phdr_walk: 1 when it names this library, its base and phdr_walk */
long dladdr_self(void) {
    Dl_info info;
    const char *inside = (const char *) &phdr_walk + 4;
    if (dladdr(inside, &info) == 0) return -1;
    if (strcmp(info.fname, "libdl-test.so") != 0) return -2;
    if (strcmp(info.sname, "phdr_walk") != 0) return -3;
    if ((addr_t) info.saddr != (addr_t) &phdr_walk) return -4;
    if ((addr_t) info.fbase > (addr_t) &phdr_walk) return -5;
    if (dladdr((const void *) 16, &info) != 0) return -6;
    return 1;
}

/* ARM: entries of this library's exception index table (0 elsewhere) */
long exidx_entries(void) {
#if defined(__aarch64__)
    return 0;
#else
    int n = -1;
    const void *t = dl_unwind_find_exidx((const void *) &exidx_entries, &n);
    return t == 0 ? -1 : n;
#endif
}
