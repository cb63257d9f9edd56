/*
 * A TCG plugin for qemu-user (QEMU 7.2, plugin API version 1) that counts executed translation
 * blocks and instructions whose block starts in [lo, hi): the independent reference for
 * bb-tracer's block counts (issue 17). Usage:
 *   qemu-arm -plugin ./tbcount.so,lo=0x113b4,hi=0x11454 -d plugin ./program
 * prints "blocks N instructions M" at exit (QEMU's plugin log: -d plugin).
 * The few API declarations it uses are written out here (Debian ships no qemu-plugin.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
__attribute__((visibility("default"))) int qemu_plugin_version = 1;

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *userdata);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_outs(const char *string);

static uint64_t lo, hi = UINT64_MAX, blocks, insns;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void) id;
    uint64_t pc = qemu_plugin_tb_vaddr(tb);
    if (pc < lo || pc >= hi) return;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &blocks, 1);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, qemu_plugin_tb_n_insns(tb));
}

static void at_exit(qemu_plugin_id_t id, void *p) {
    (void) id; (void) p;
    char out[96];
    snprintf(out, sizeof out, "blocks %" PRIu64 " instructions %" PRIu64 "\n", blocks, insns);
    qemu_plugin_outs(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv) {
    (void) info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "lo=", 3) == 0) lo = strtoull(argv[i] + 3, NULL, 0);
        else if (strncmp(argv[i], "hi=", 3) == 0) hi = strtoull(argv[i] + 3, NULL, 0);
        else return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
