/*
 * hyprof's engine shim: Unicorn 2 (Debian's libunicorn, linked in statically) for
 * org.hyprof.bb.emu.LibUnicornBackend, with basic-block counting done here in C.
 *
 * Why it exists: a block hook written in Java costs a JNI up-call per executed block (about
 * 90 ns on this project's machines, bench/README.md). Here the hook is a C function: a lookup in
 * an open-addressing table (block address -> dense index) and two increments, into memory that
 * Java owns (direct buffers of org.hyprof.bb.BlockCounter). Java is called only the first time a
 * block runs (it assigns the index) and for the hooks that must run Java code (import stubs).
 *
 * Unicorn is linked statically with its symbols hidden (-Wl,--exclude-libs,ALL): unidbg's bundled
 * libunicorn.so has the same SONAME and may be loaded in the same JVM; this way neither library
 * can bind to the other's copy.
 *
 * Threading: an engine is driven by one thread at a time (Emulator is synchronized). Up-calls
 * happen on the thread inside uc_emu_start; the JNIEnv is looked up from the JavaVM each time.
 * A Java exception raised by an up-call stops the emulation and stays pending, so the Java caller
 * of run() sees it; no further up-call is made while it is pending.
 */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define ARCH_ARM 0
#define ARCH_ARM64 1

/* register selectors shared with LibUnicornBackend.java */
#define REG_GPR 0    /* + n, n = 0..30 */
#define REG_SP 32
#define REG_LR 33
#define REG_PC 34
#define REG_CPSR 35
#define REG_TLS 36   /* the thread pointer: TPIDRURO (ARM) / TPIDR_EL0 (AArch64) */
#define REG_FPR 64   /* + n, n = 0..31 */

typedef struct listener {
    struct engine *e;
    jobject target;          /* global ref */
    jmethodID method;
    struct listener *next;
} listener;

typedef struct engine {
    uc_engine *uc;
    int arch;
    JavaVM *vm;
    listener *listeners;
    /* block counting (one counter per engine) */
    jobject counter;         /* global ref to the BlockCounter, or NULL */
    jmethodID first_seen;    /* int firstSeen(long address, int size) */
    uint64_t *keys;          /* address + 1, 0 = empty */
    int32_t *values;         /* dense index */
    uint32_t mask, used;
    int64_t *counts;         /* the current epoch's counts (BlockCounter's direct buffer) */
    int64_t capacity;        /* entries in counts */
    int32_t *touched;        /* the epoch's touched list: [0] = n, [1..n] = indexes whose count went 0 -> 1 */
    int64_t *executed;       /* BlockCounter's totals: [0] blocks executed, [1] code bytes left in the call's budget */
    /* blocks Unicorn split at its 1 KiB ARM pages, merged for counting (issue 17; see count_split) */
    jmethodID split_at_page; /* boolean splitAtPage(int index) */
    jmethodID extend;        /* void extend(int index, long end) */
    uint8_t *split;          /* by index: 1 = ends at a page split */
    uint64_t *merged_end;    /* by index: end of the block with its continuations, as Java knows it */
    uint32_t split_slots;
    int32_t head;            /* index of the block being counted */
    uint64_t begin;          /* the counted range's start; direct: index + 1 by halfword offset */
    int32_t *direct;
    uint64_t direct_slots;
    uint64_t fall_end;       /* where a continuation of head would start; NO_FALL when none */
} engine;

#define NO_FALL UINT64_MAX

static void throw_native(JNIEnv *env, const char *what, uc_err err) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", what, uc_strerror(err));
    jclass c = (*env)->FindClass(env, "org/hyprof/bb/NativeException");
    if (c != NULL) (*env)->ThrowNew(env, c, msg);
}

static JNIEnv *env_of(engine *e) {
    JNIEnv *env = NULL;
    if ((*e->vm)->GetEnv(e->vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) return NULL;
    return env;
}

static int reg_id(int arch, int sel) {
    if (arch == ARCH_ARM) {
        if (sel >= REG_FPR) return sel - REG_FPR <= 31 ? UC_ARM_REG_D0 + (sel - REG_FPR) : -1;
        switch (sel) {
            case REG_SP: case REG_GPR + 13: return UC_ARM_REG_SP;
            case REG_LR: case REG_GPR + 14: return UC_ARM_REG_LR;
            case REG_PC: case REG_GPR + 15: return UC_ARM_REG_PC;
            case REG_CPSR: return UC_ARM_REG_CPSR;
            case REG_TLS: return UC_ARM_REG_C13_C0_3;
            default: return sel >= REG_GPR && sel <= REG_GPR + 12 ? UC_ARM_REG_R0 + sel : -1;
        }
    }
    if (sel >= REG_FPR) return sel - REG_FPR <= 31 ? UC_ARM64_REG_D0 + (sel - REG_FPR) : -1;
    switch (sel) {
        case REG_SP: return UC_ARM64_REG_SP;
        case REG_LR: case REG_GPR + 30: return UC_ARM64_REG_X30;
        case REG_GPR + 29: return UC_ARM64_REG_X29;
        case REG_PC: return UC_ARM64_REG_PC;
        case REG_TLS: return UC_ARM64_REG_TPIDR_EL0;
        default: return sel >= REG_GPR && sel <= REG_GPR + 28 ? UC_ARM64_REG_X0 + sel : -1;
    }
}

#define ENGINE(h) ((engine *) (intptr_t) (h))

JNIEXPORT jlong JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_open(JNIEnv *env, jclass cls, jint arch) {
    (void) cls;
    engine *e = calloc(1, sizeof *e);
    if (e == NULL) { throw_native(env, "cannot start the emulator", UC_ERR_NOMEM); return 0; }
    e->arch = arch;
    (*env)->GetJavaVM(env, &e->vm);
    uc_err err = arch == ARCH_ARM ? uc_open(UC_ARCH_ARM, UC_MODE_ARM, &e->uc) : uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &e->uc);
    if (err != UC_ERR_OK) { free(e); throw_native(env, "cannot start the emulator", err); return 0; }
    /* VFP/NEON start disabled: CPACR full access to cp10/cp11 (and FPEXC.EN on ARM) */
    if (arch == ARCH_ARM) {
        uint32_t v = 0;
        uc_reg_read(e->uc, UC_ARM_REG_C1_C0_2, &v);
        v |= 0xfu << 20;
        uc_reg_write(e->uc, UC_ARM_REG_C1_C0_2, &v);
        v = 0x40000000u;
        uc_reg_write(e->uc, UC_ARM_REG_FPEXC, &v);
    } else {
        uint64_t v = 0;
        uc_reg_read(e->uc, UC_ARM64_REG_CPACR_EL1, &v);
        v |= 0x300000u;
        uc_reg_write(e->uc, UC_ARM64_REG_CPACR_EL1, &v);
    }
    return (jlong) (intptr_t) e;
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_close(JNIEnv *env, jclass cls, jlong h) {
    (void) cls;
    engine *e = ENGINE(h);
    if (e == NULL) return;
    uc_close(e->uc);
    for (listener *l = e->listeners, *n; l != NULL; l = n) {
        n = l->next;
        (*env)->DeleteGlobalRef(env, l->target);
        free(l);
    }
    if (e->counter != NULL) (*env)->DeleteGlobalRef(env, e->counter);
    free(e->keys);
    free(e->values);
    free(e->split);
    free(e->merged_end);
    free(e->direct);
    free(e);
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_map(JNIEnv *env, jclass cls, jlong h, jlong address, jlong size, jint prot) {
    (void) cls;
    uc_err err = uc_mem_map(ENGINE(h)->uc, (uint64_t) address, (size_t) size, (uint32_t) prot);
    if (err != UC_ERR_OK) throw_native(env, "cannot map emulated memory", err);
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_write(JNIEnv *env, jclass cls, jlong h, jlong address, jbyteArray data) {
    (void) cls;
    jsize n = (*env)->GetArrayLength(env, data);
    jbyte *p = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
    if (p == NULL) return;
    uc_err err = uc_mem_write(ENGINE(h)->uc, (uint64_t) address, p, (size_t) n);
    (*env)->ReleasePrimitiveArrayCritical(env, data, p, JNI_ABORT);
    if (err != UC_ERR_OK) throw_native(env, "cannot write emulated memory", err);
}

JNIEXPORT jbyteArray JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_read(JNIEnv *env, jclass cls, jlong h, jlong address, jint size) {
    (void) cls;
    jbyteArray out = (*env)->NewByteArray(env, size);
    if (out == NULL) return NULL;
    jbyte *p = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
    if (p == NULL) return NULL;
    uc_err err = uc_mem_read(ENGINE(h)->uc, (uint64_t) address, p, (size_t) size);
    (*env)->ReleasePrimitiveArrayCritical(env, out, p, 0);
    if (err != UC_ERR_OK) { throw_native(env, "cannot read emulated memory", err); return NULL; }
    return out;
}

JNIEXPORT jlong JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_reg(JNIEnv *env, jclass cls, jlong h, jint sel) {
    (void) cls;
    engine *e = ENGINE(h);
    int id = reg_id(e->arch, sel);
    uint64_t v = 0;
    if (id < 0) { throw_native(env, "no such register", UC_ERR_ARG); return 0; }
    uc_err err = uc_reg_read(e->uc, id, &v);
    if (err != UC_ERR_OK) throw_native(env, "cannot read a register", err);
    /* 32-bit ARM core registers are 32 bits wide; unicorn writes only the low half */
    if (e->arch == ARCH_ARM && sel < REG_FPR) v &= 0xffffffffu;
    return (jlong) v;
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_setReg(JNIEnv *env, jclass cls, jlong h, jint sel, jlong value) {
    (void) cls;
    engine *e = ENGINE(h);
    int id = reg_id(e->arch, sel);
    if (id < 0) { throw_native(env, "no such register", UC_ERR_ARG); return; }
    uint64_t v = (uint64_t) value;
    uint32_t v32 = (uint32_t) value;
    uc_err err = e->arch == ARCH_ARM && sel < REG_FPR ? uc_reg_write(e->uc, id, &v32) : uc_reg_write(e->uc, id, &v);
    if (err != UC_ERR_OK) throw_native(env, "cannot write a register", err);
}

/* Returns the uc_err of uc_emu_start (0 = ok); Java turns it into a message with errorText. */
JNIEXPORT jint JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_run(JNIEnv *env, jclass cls, jlong h, jlong begin, jlong until) {
    (void) env; (void) cls;
    ENGINE(h)->fall_end = NO_FALL; /* a call never continues the previous one's block */
    return (jint) uc_emu_start(ENGINE(h)->uc, (uint64_t) begin, (uint64_t) until, 0, 0);
}

JNIEXPORT jstring JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_errorText(JNIEnv *env, jclass cls, jint err) {
    (void) cls;
    return (*env)->NewStringUTF(env, uc_strerror((uc_err) err));
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_stop(JNIEnv *env, jclass cls, jlong h) {
    (void) env; (void) cls;
    uc_emu_stop(ENGINE(h)->uc);
}

JNIEXPORT jlong JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_save(JNIEnv *env, jclass cls, jlong h) {
    (void) cls;
    uc_context *c = NULL;
    uc_err err = uc_context_alloc(ENGINE(h)->uc, &c);
    if (err == UC_ERR_OK) err = uc_context_save(ENGINE(h)->uc, c);
    if (err != UC_ERR_OK) { if (c != NULL) uc_context_free(c); throw_native(env, "cannot save the CPU state", err); return 0; }
    return (jlong) (intptr_t) c;
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_restore(JNIEnv *env, jclass cls, jlong h, jlong ctx) {
    (void) cls;
    uc_context *c = (uc_context *) (intptr_t) ctx;
    uc_err err = uc_context_restore(ENGINE(h)->uc, c);
    uc_context_free(c);
    if (err != UC_ERR_OK) throw_native(env, "cannot restore the CPU state", err);
}

/* ---- hooks that call Java ---- */

static int pending(engine *e, JNIEnv *env) {
    if (env == NULL) { uc_emu_stop(e->uc); return 1; }
    if ((*env)->ExceptionCheck(env)) { uc_emu_stop(e->uc); return 1; }
    return 0;
}

static void on_code(uc_engine *uc, uint64_t address, uint32_t size, void *user) {
    (void) uc; (void) size;
    listener *l = user;
    JNIEnv *env = env_of(l->e);
    if (pending(l->e, env)) return;
    (*env)->CallVoidMethod(env, l->target, l->method, (jlong) address);
    pending(l->e, env);
}

static void on_block_java(uc_engine *uc, uint64_t address, uint32_t size, void *user) {
    (void) uc;
    listener *l = user;
    JNIEnv *env = env_of(l->e);
    if (pending(l->e, env)) return;
    (*env)->CallVoidMethod(env, l->target, l->method, (jlong) address, (jint) size);
    pending(l->e, env);
}

static void add_listener(JNIEnv *env, engine *e, int type, void *callback, jobject target, const char *name,
                         const char *sig, jlong begin, jlong end) {
    listener *l = calloc(1, sizeof *l);
    if (l == NULL) { throw_native(env, "cannot add a hook", UC_ERR_NOMEM); return; }
    jclass c = (*env)->GetObjectClass(env, target);
    l->method = (*env)->GetMethodID(env, c, name, sig);
    if (l->method == NULL) { free(l); return; }
    l->e = e;
    l->target = (*env)->NewGlobalRef(env, target);
    uc_hook hh;
    uc_err err = uc_hook_add(e->uc, &hh, type, callback, l, (uint64_t) begin, (uint64_t) end - 1);
    if (err != UC_ERR_OK) {
        (*env)->DeleteGlobalRef(env, l->target);
        free(l);
        throw_native(env, "cannot add a hook", err);
        return;
    }
    l->next = e->listeners;
    e->listeners = l;
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_hookCode(JNIEnv *env, jclass cls, jlong h, jlong begin, jlong end, jobject target) {
    (void) cls;
    add_listener(env, ENGINE(h), UC_HOOK_CODE, (void *) on_code, target, "code", "(J)V", begin, end);
}

/* A CPU exception (svc: a system call) goes to Java's interrupt(int). */
static void on_interrupt(uc_engine *uc, uint32_t intno, void *user) {
    (void) uc;
    listener *l = user;
    JNIEnv *env = env_of(l->e);
    if (pending(l->e, env)) return;
    (*env)->CallVoidMethod(env, l->target, l->method, (jint) intno);
    pending(l->e, env);
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_hookInterrupt(JNIEnv *env, jclass cls, jlong h, jobject target) {
    (void) cls;
    /* begin 1 > end 0: every address */
    add_listener(env, ENGINE(h), UC_HOOK_INTR, (void *) on_interrupt, target, "interrupt", "(I)V", 1, 1);
}

JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_hookBlock(JNIEnv *env, jclass cls, jlong h, jlong begin, jlong end, jobject target) {
    (void) cls;
    add_listener(env, ENGINE(h), UC_HOOK_BLOCK, (void *) on_block_java, target, "block", "(JI)V", begin, end);
}

/* ---- block counting in C ---- */

static inline uint32_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (uint32_t) k;
}

static int grow_table(engine *e) {
    uint32_t n = e->mask == 0 ? 1024 : (e->mask + 1) * 2;
    uint64_t *keys = calloc(n, sizeof *keys);
    int32_t *values = calloc(n, sizeof *values);
    if (keys == NULL || values == NULL) { free(keys); free(values); return 0; }
    for (uint32_t j = 0; e->keys != NULL && j <= e->mask; j++) {
        if (e->keys[j] == 0) continue;
        uint32_t i = mix(e->keys[j]) & (n - 1);
        while (keys[i] != 0) i = (i + 1) & (n - 1);
        keys[i] = e->keys[j];
        values[i] = e->values[j];
    }
    free(e->keys);
    free(e->values);
    e->keys = keys;
    e->values = values;
    e->mask = n - 1;
    return 1;
}

/* ---- blocks split at Unicorn's 1 KiB ARM pages (issue 17) ----
 * Unicorn's ARM and AArch64 targets end translation blocks at 1 KiB page boundaries, qemu-user's at
 * 4 KiB. Java (BlockCounter, PageSplits) says which blocks end at such a split without a branch;
 * a block that then starts right at their end is their continuation: it is not counted, and the
 * block being counted (head) grows to cover it. The Java engine does the same in BlockCounter.block. */

static int note_split(engine *e, JNIEnv *env, int32_t idx, uint64_t address, uint32_t size) {
    if ((uint32_t) idx >= e->split_slots) {
        uint32_t n = e->split_slots == 0 ? 256 : e->split_slots;
        while (n <= (uint32_t) idx) n *= 2;
        uint8_t *split = realloc(e->split, n);
        if (split != NULL) e->split = split;
        uint64_t *ends = realloc(e->merged_end, n * sizeof *ends);
        if (ends != NULL) e->merged_end = ends;
        if (split == NULL || ends == NULL) {
            jclass c = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
            if (c != NULL) (*env)->ThrowNew(env, c, "bb-tracer: block table");
            uc_emu_stop(e->uc);
            return 0;
        }
        e->split_slots = n;
    }
    jboolean split = (*env)->CallBooleanMethod(env, e->counter, e->split_at_page, (jint) idx);
    if (pending(e, env)) return 0;
    e->split[idx] = split ? 1 : 0;
    e->merged_end[idx] = address + size;
    return 1;
}

/* A block's first execution: Java assigns its index (and may hand us a bigger count buffer). */
static int32_t first_seen(engine *e, uint64_t address, uint32_t size, uint32_t slot) {
    JNIEnv *env = env_of(e);
    if (pending(e, env)) return -1;
    jint idx = (*env)->CallIntMethod(env, e->counter, e->first_seen, (jlong) address, (jint) size);
    if (pending(e, env) || idx < 0) return -1;
    if (!note_split(e, env, idx, address, size)) return -1;
    e->keys[slot] = address + 1;
    e->values[slot] = idx;
    if (++e->used * 2 > e->mask + 1 && !grow_table(e)) {
        jclass c = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (c != NULL) (*env)->ThrowNew(env, c, "bb-tracer: block table");
        uc_emu_stop(e->uc);
    }
    return idx;
}

/*
 * The index of the block at address (asking Java the first time); -1 when Java failed. Blocks of
 * the counted range are looked up by their offset in a direct map (index + 1 per halfword, 0 = not
 * yet; calloc'd, so only the pages where blocks start are ever touched), in front of the hash
 * table: one load instead of a hash and a probe (perf: the lookup was most of the hook's ~3.7 ns
 * per block on FFT, issue 17).
 */
static __attribute__((noinline)) int32_t index_slow(engine *e, uint64_t address, uint32_t size, uint64_t slot) {
    uint64_t k = address + 1;
    int32_t idx;
    for (uint32_t i = mix(k) & e->mask;; i = (i + 1) & e->mask) {
        uint64_t kk = e->keys[i];
        if (kk == k) { idx = e->values[i]; break; }
        if (kk == 0) { idx = first_seen(e, address, size, i); break; }
    }
    if (idx >= 0 && slot < e->direct_slots) e->direct[slot] = idx + 1;
    return idx;
}

/* The hook's fast path stays small (no registers to save): the rest is in index_slow. */
static inline int32_t index_of(engine *e, uint64_t address, uint32_t size) {
    uint64_t slot = (address - e->begin) >> 1;
    if (slot < e->direct_slots && e->direct[slot] != 0) return e->direct[slot] - 1;
    return index_slow(e, address, size, slot);
}

/* A continuation of head: grows head (telling Java once per new extent), counts nothing. */
static __attribute__((noinline)) void count_split(engine *e, uint64_t address, uint32_t size) {
    int32_t idx = index_of(e, address, size);
    if (idx < 0) return;
    uint64_t end = address + size;
    if (end > e->merged_end[e->head]) {
        JNIEnv *env = env_of(e);
        if (pending(e, env)) return;
        (*env)->CallVoidMethod(env, e->counter, e->extend, (jint) e->head, (jlong) end);
        if (pending(e, env)) return;
        e->merged_end[e->head] = end;
    }
    e->fall_end = e->split[idx] ? end : NO_FALL;
}

static void on_block_count(uc_engine *uc, uint64_t address, uint32_t size, void *user) {
    engine *e = user;
    /* the instruction budget (Limits): one subtraction and a branch never taken until it runs out;
       continuations (issue 17) are code executed too */
    if ((e->executed[1] -= size) < 0) uc_emu_stop(uc);
    if (address == e->fall_end) { count_split(e, address, size); return; } /* issue 17 */
    int32_t idx = index_of(e, address, size);
    if (idx < 0) return;
    /* the epoch's first execution of this block: note it, so the epoch's accounting reads only the
       blocks it ran (issue 16 item 5; one compare on a count just loaded, rarely taken) */
    if (idx < e->capacity && e->counts[idx]++ == 0) e->touched[++e->touched[0]] = idx;
    e->executed[0]++;
    e->head = idx; /* issue 17: where a continuation of this block would start */
    e->fall_end = e->split[idx] ? address + size : NO_FALL;
}

/*
 * Counts every block in [begin, end) into counter's buffers: counter.firstSeen(long, int) gives a
 * new block's index; counts go into the buffer last passed to countInto (a block's index onto the
 * touched list there when its count goes from 0 to 1), executions into totals[0];
 * each block's size is taken from totals[1], the call's budget, and the emulation stops below 0.
 */
JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_countBlocks(JNIEnv *env, jclass cls, jlong h, jlong begin, jlong end,
                                                                             jobject counter, jobject totals) {
    (void) cls;
    engine *e = ENGINE(h);
    if (e->counter != NULL) { throw_native(env, "blocks are already counted", UC_ERR_ARG); return; }
    jclass c = (*env)->GetObjectClass(env, counter);
    e->first_seen = (*env)->GetMethodID(env, c, "firstSeen", "(JI)I");
    if (e->first_seen == NULL) return;
    e->split_at_page = (*env)->GetMethodID(env, c, "splitAtPage", "(I)Z");
    e->extend = (*env)->GetMethodID(env, c, "extend", "(IJ)V");
    if (e->split_at_page == NULL || e->extend == NULL) return;
    e->fall_end = NO_FALL;
    e->begin = (uint64_t) begin;
    e->direct_slots = (uint64_t) (end - begin) >> 1;
    e->direct = e->direct_slots <= (1u << 28) ? calloc(e->direct_slots, sizeof *e->direct) : NULL;
    if (e->direct == NULL) e->direct_slots = 0; /* the hash table alone */
    e->executed = (*env)->GetDirectBufferAddress(env, totals);
    if ((*env)->GetDirectBufferCapacity(env, totals) < 16) e->executed = NULL;
    if (e->executed == NULL || !grow_table(e)) { throw_native(env, "cannot count blocks", UC_ERR_NOMEM); return; }
    e->counter = (*env)->NewGlobalRef(env, counter);
    uc_hook hh;
    uc_err err = uc_hook_add(e->uc, &hh, UC_HOOK_BLOCK, (void *) on_block_count, e, (uint64_t) begin, (uint64_t) end - 1);
    if (err != UC_ERR_OK) throw_native(env, "cannot add the block hook", err);
}

/*
 * Where counts go from now on (BlockCounter switches them per epoch): a direct LongBuffer of
 * counts and a direct IntBuffer, the touched list, with one slot more than the counts (its
 * length). Only the slots both can hold are counted into, so the list never overflows: a block is
 * appended at most once per epoch, when its count goes from 0 to 1.
 */
JNIEXPORT void JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_countInto(JNIEnv *env, jclass cls, jlong h, jobject counts,
                                                                           jobject touched) {
    (void) cls;
    engine *e = ENGINE(h);
    e->counts = (*env)->GetDirectBufferAddress(env, counts);
    e->touched = (*env)->GetDirectBufferAddress(env, touched);
    jlong n = e->counts == NULL ? 0 : (*env)->GetDirectBufferCapacity(env, counts);   /* in longs */
    jlong t = e->touched == NULL ? 0 : (*env)->GetDirectBufferCapacity(env, touched); /* in ints */
    e->capacity = t - 1 < n ? t - 1 : n;
    if (e->capacity < 0) e->capacity = 0;
}

/* ---- which Unicorn this shim was built against (issue 17) ---- */

#ifndef HYPROF_UNICORN_FROM
#define HYPROF_UNICORN_FROM "libunicorn.a"
#endif

/* "Unicorn 2.1.1 (libunicorn-dev 2.1.1-2+b2, fetched)": uc_version of the library linked in. */
JNIEXPORT jstring JNICALL Java_org_hyprof_bb_emu_LibUnicornBackend_version(JNIEnv *env, jclass cls) {
    (void) cls;
    unsigned int major = 0, minor = 0;
    unsigned int v = uc_version(&major, &minor);
    char text[160];
    snprintf(text, sizeof text, "Unicorn %u.%u.%u (%s)", major, minor, (v >> 8) & 0xffu, HYPROF_UNICORN_FROM);
    return (*env)->NewStringUTF(env, text);
}
