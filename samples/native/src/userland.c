/*
 * Files and threads through Android's own libc (bionic), for bb-tracer's sandbox and thread tests
 * (SandboxTest, ThreadsTest; --userland bionic). Built -nostdlib without any libc headers: the
 * declarations below follow bionic's ABI (LP64 and LP32), not the cross compiler's glibc.
 * Build: ../build.sh
 */
typedef __SIZE_TYPE__ size_t;
typedef long ssize_t;
typedef long long off64_t;
typedef long pthread_t;
typedef struct FILE FILE;
typedef struct DIR DIR;

FILE *fopen(const char *path, const char *mode);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);
int fclose(FILE *f);
int stat(const char *path, void *st);
int unlink(const char *path);
int mkdir(const char *path, int mode);
int rmdir(const char *path);
int rename(const char *from, const char *to);
int open(const char *path, int flags, int mode);
int close(int fd);
ssize_t read(int fd, void *p, size_t n);
ssize_t write(int fd, const void *p, size_t n);
ssize_t pread64(int fd, void *p, size_t n, off64_t at);
off64_t lseek64(int fd, off64_t at, int whence);
int ftruncate64(int fd, off64_t length);
int fstat(int fd, void *st);
int fsync(int fd);
int flock(int fd, int op);
void *mmap(void *addr, size_t n, int prot, int flags, int fd, long offset);
int munmap(void *addr, size_t n);
int msync(void *addr, size_t n, int flags);
DIR *opendir(const char *path);
void *readdir(DIR *d);
int closedir(DIR *d);
int *__errno(void);
int gettid(void);
int pthread_create(pthread_t *t, const void *attr, void *(*fn)(void *), void *arg);
int pthread_join(pthread_t t, void **result);
int pthread_mutex_lock(void *m);
int pthread_mutex_unlock(void *m);
int pthread_cond_wait(void *c, void *m);
int pthread_cond_signal(void *c);
int pthread_cond_broadcast(void *c);
int sched_yield(void);
void *memset(void *d, int c, size_t n);

#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 0100
#define O_TRUNC 01000
#define PROT_RW 3
#define MAP_SHARED 1
#define MS_SYNC 4

/* st_size is at offset 48 in bionic's struct stat on both ABIs */
static long long st_size(const char *st) { return *(const long long *) (st + 48); }

int errno_value(void) { return *__errno(); }

/*
 * fopen/fwrite/fclose, stat, fopen/fread, unlink, stat again: the bytes read back (n of them,
 * byte i = i * 7) are summed; negative: the step that failed.
 */
long files_roundtrip(int n) {
    static char buf[8192], back[8192];
    static long long st[20];
    if (n < 1 || n > (int) sizeof buf) return -1;
    for (int i = 0; i < n; i++) buf[i] = (char) (i * 7);
    if (mkdir("/data", 0700) != 0 && *__errno() != 17) return -2;
    FILE *f = fopen("/data/t.bin", "w");
    if (!f) return -3;
    if (fwrite(buf, 1, n, f) != (size_t) n) return -4;
    if (fclose(f) != 0) return -5;
    if (stat("/data/t.bin", st) != 0 || st_size((char *) st) != n) return -6;
    f = fopen("/data/./t.bin", "r");
    if (!f) return -7;
    if (fread(back, 1, sizeof back, f) != (size_t) n) return -8;
    fclose(f);
    long sum = 0;
    for (int i = 0; i < n; i++) {
        if (back[i] != buf[i]) return -9;
        sum += (unsigned char) back[i];
    }
    if (unlink("/data/t.bin") != 0) return -10;
    if (stat("/data/t.bin", st) != -1 || *__errno() != 2) return -11;
    return sum;
}

/* open(path, flags) as given: the fd, or -errno. */
int open_path(const char *path, int flags) {
    int fd = open(path, flags, 0600);
    return fd >= 0 ? fd : -*__errno();
}

int close_fd(int fd) { return close(fd) == 0 ? 0 : -*__errno(); }

/* Opens /many.txt until open fails: how many opened; the fds stay open (close_from closes them). */
int open_until_failure(void) {
    int n = 0;
    while (open("/many.txt", O_RDWR | O_CREAT, 0600) >= 0) n++;
    return n;
}

void close_from(int fd) {
    for (int i = fd; i < 1024; i++) close(i);
}

/*
 * A shared mapping of a new file of n bytes (n a multiple of 4096): byte i = i * 3 written
 * through the mapping; mode 0 msync then read through another fd (returns the sum of those
 * bytes), mode 1 munmap and close (returns 0), mode 2 leaves the mapping and the fd open (the
 * emulator's close writes it back).
 */
long mapped_file(const char *path, int n, int mode) {
    static unsigned char back[65536];
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return -1;
    if (ftruncate64(fd, n) != 0) return -2;
    unsigned char *p = mmap(0, n, PROT_RW, MAP_SHARED, fd, 0);
    if (p == (void *) -1) return -3;
    for (int i = 0; i < n; i++) p[i] = (unsigned char) (i * 3);
    if (mode == 0) {
        if (msync(p, n, MS_SYNC) != 0) return -4;
        int other = open(path, O_RDONLY, 0);
        if (other < 0) return -5;
        int got = n > (int) sizeof back ? (int) sizeof back : n;
        if (pread64(other, back, got, 0) != got) return -6;
        close(other);
        long sum = 0;
        for (int i = 0; i < got; i++) sum += back[i];
        munmap(p, n);
        close(fd);
        return sum;
    }
    if (mode == 1) {
        if (munmap(p, n) != 0) return -7;
        if (close(fd) != 0) return -8;
    }
    return 0;
}

/* mkdir /d, three files in it, readdir: the entries other than . and ..; rmdir of it: -errno. */
int dir_listing(void) {
    if (mkdir("/d", 0700) != 0) return -1;
    const char *names[] = {"/d/a", "/d/b", "/d/c"};
    for (int i = 0; i < 3; i++) {
        int fd = open(names[i], O_WRONLY | O_CREAT, 0600);
        if (fd < 0) return -2;
        close(fd);
    }
    DIR *d = opendir("/d");
    if (!d) return -3;
    int n = 0;
    char *e;
    while ((e = readdir(d)) != 0) {
        const char *name = e + 19; /* d_ino, d_off, d_reclen, d_type, then d_name */
        if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))) n++;
    }
    closedir(d);
    if (rmdir("/d") == 0) return -4;
    return n * 100 + *__errno();
}

/* ---- threads ---- */

static long long mutex[8];   /* pthread_mutex_t: 40 bytes (LP64), 4 (LP32); zero = PTHREAD_MUTEX_INITIALIZER */
static long long cond[8];    /* pthread_cond_t: 48 bytes (LP64), 4 (LP32) */
static long shared_total;
static int turn, thread_ids[64];

struct work { int index, count; long sum; };
static struct work works[64];

static void *sum_up(void *arg) {
    struct work *w = arg;
    for (int i = 1; i <= w->count; i++) {
        w->sum += i;
        pthread_mutex_lock(mutex);
        shared_total += 1;
        pthread_mutex_unlock(mutex);
        if (i % 16 == 0) sched_yield();
    }
    thread_ids[w->index] = gettid();
    return (void *) w->sum;
}

/*
 * n threads (at most 64), each summing 1..count into its own slot and counting into a shared
 * total under a mutex; joined; returns the sum of their results plus the shared total
 * (n * count * (count + 1) / 2 + n * count); -1 if a create or join failed, -2 if a thread ran as the main thread.
 */
long threads_sum(int n, int count) {
    pthread_t t[64];
    if (n < 1 || n > 64) return -1;
    shared_total = 0;
    for (int i = 0; i < n; i++) {
        works[i].index = i;
        works[i].count = count;
        works[i].sum = 0;
        if (pthread_create(&t[i], 0, sum_up, &works[i]) != 0) return -1;
    }
    long total = 0;
    for (int i = 0; i < n; i++) {
        void *r;
        if (pthread_join(t[i], &r) != 0) return -1;
        total += (long) r;
        if (thread_ids[i] == gettid()) return -2;
    }
    return total + shared_total;
}

static void *ping(void *arg) {
    int rounds = (int) (long) arg;
    for (int i = 0; i < rounds; i++) {
        pthread_mutex_lock(mutex);
        while (turn != 1) pthread_cond_wait(cond, mutex);
        turn = 0;
        pthread_cond_signal(cond);
        pthread_mutex_unlock(mutex);
    }
    return 0;
}

/* Two threads taking turns through a mutex and a condition variable: returns the rounds done. */
int condvar_pingpong(int rounds) {
    pthread_t t;
    turn = 0;
    if (pthread_create(&t, 0, ping, (void *) (long) rounds) != 0) return -1;
    int done = 0;
    for (int i = 0; i < rounds; i++) {
        pthread_mutex_lock(mutex);
        while (turn != 0) pthread_cond_wait(cond, mutex);
        turn = 1;
        done++;
        pthread_cond_signal(cond);
        pthread_mutex_unlock(mutex);
    }
    pthread_join(t, 0);
    return done;
}

static long long gate[8];
static int released;

static void *wait_at_gate(void *arg) {
    (void) arg;
    pthread_mutex_lock(mutex);
    while (!released) pthread_cond_wait(gate, mutex);
    pthread_mutex_unlock(mutex);
    return 0;
}

/* Starts threads that wait until released, until pthread_create fails: how many started * 100 + its error. */
int start_until_failure(void) {
    static pthread_t t[1024];
    released = 0;
    int n = 0, err = 0;
    while (n < 1024 && (err = pthread_create(&t[n], 0, wait_at_gate, 0)) == 0) n++;
    pthread_mutex_lock(mutex);
    released = 1;
    pthread_cond_broadcast(gate);
    pthread_mutex_unlock(mutex);
    for (int i = 0; i < n; i++) pthread_join(t[i], 0);
    return n * 100 + err;
}

/* Locks a normal mutex twice: waits forever on itself. */
int lock_twice(void) {
    static long long m[8];
    pthread_mutex_lock(m);
    return pthread_mutex_lock(m);
}

static void *background(void *arg) {
    long *slot = arg;
    for (long i = 1; i <= 1000; i++) *slot += i;
    return 0;
}

static long background_result;

/* Starts a thread and returns without joining it: the thread runs before the call ends. */
int start_detached_work(void) {
    pthread_t t;
    background_result = 0;
    return pthread_create(&t, 0, background, &background_result);
}

long background_value(void) { return background_result; }

/* ---- hostile sizes ---- */

/* write(fd, a 16-byte buffer, n) on /h: the result, or -errno (n far past the buffer: EFAULT). */
long write_huge(long n) {
    static char b[16];
    int fd = open("/h", O_RDWR | O_CREAT, 0600);
    if (fd < 0) return -1000 - *__errno();
    long r = write(fd, b, n);
    long e = r < 0 ? -*__errno() : r;
    close(fd);
    return e;
}

/* ftruncate64 of /h to n bytes: 0, or -errno (beyond the sandbox's file size cap: EFBIG). */
int truncate_huge(long long n) {
    int fd = open("/h", O_RDWR | O_CREAT, 0600);
    if (fd < 0) return -1000 - *__errno();
    int r = ftruncate64(fd, n) == 0 ? 0 : -*__errno();
    close(fd);
    return r;
}

/* ---- errors ---- */

long syscall(long number, ...);
void abort(void);

/* A system call the emulator does not know (ENOSYS), then abort(): the error names both. */
int enosys_then_abort(void) {
    if (syscall(999) < 0) abort();
    return 0;
}

/* Reads a word at an address nothing is mapped at: a fault, named with the function. */
int read_unmapped(void) {
    return *(volatile int *) 0x20000000;
}

/* ---- the other file calls ---- */

int fcntl(int fd, int cmd, ...);
int dup(int fd);

/*
 * lseek64 (ARM: _llseek), read after it, fsync, flock, fcntl(F_GETFL), dup (sharing the offset),
 * fstat, rename: 0, or the step that failed (negative).
 */
int misc_calls(void) {
    static long long st[20];
    char c = 0;
    int fd = open("/misc", O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return -1;
    if (write(fd, "0123456789", 10) != 10) return -2;
    if (lseek64(fd, 3, 0) != 3) return -3;
    if (read(fd, &c, 1) != 1 || c != '3') return -4;
    if (lseek64(fd, -2, 2) != 8) return -5;
    if (fsync(fd) != 0) return -6;
    if (flock(fd, 2) != 0) return -7;                 /* LOCK_EX: granted, one process */
    if ((fcntl(fd, 3) & 3) != O_RDWR) return -8;      /* F_GETFL */
    int d = dup(fd);
    if (d < 0 || lseek64(d, 0, 1) != 8) return -9;    /* the same open file: the same offset */
    if (fstat(d, st) != 0 || st_size((char *) st) != 10) return -10;
    close(d);
    close(fd);
    if (rename("/misc", "/misc2") != 0) return -11;
    if (open("/misc", O_RDONLY, 0) != -1 || *__errno() != 2) return -12;
    return 0;
}
