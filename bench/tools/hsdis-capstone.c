/*
 * A minimal HotSpot disassembler plugin on capstone (x86-64), for -XX:+PrintAssembly while
 * investigating (built by bench/hsdis.sh). HotSpot dlopens hsdis-amd64.so and calls
 * decode_instructions_virtual with the code's bytes and address; the "insn" and "/insn" events
 * around each instruction let it interleave its own annotations (oop maps, bytecode positions).
 * Options are ignored: Intel syntax always.
 */
#include <stdint.h>
#include <capstone/capstone.h>
typedef void* (*event_callback_t)(void*, const char*, void*);
typedef int (*printf_callback_t)(void*, const char*, ...);
void* decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char* buffer, uintptr_t length,
                                  event_callback_t event_callback, void* event_stream,
                                  printf_callback_t printf_callback, void* printf_stream,
                                  const char* options, int newline) {
  csh h;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) return NULL;
  cs_insn* insn;
  size_t n = cs_disasm(h, buffer, length, start_va, 0, &insn);
  uintptr_t end = start_va;
  for (size_t i = 0; i < n; i++) {
    if (event_callback) event_callback(event_stream, "insn", (void*) insn[i].address);
    printf_callback(printf_stream, "%s\t%s", insn[i].mnemonic, insn[i].op_str);
    if (event_callback) event_callback(event_stream, "/insn", (void*) (insn[i].address + insn[i].size));
    if (newline) printf_callback(printf_stream, "\n");
    end = insn[i].address + insn[i].size;
  }
  if (n > 0) cs_free(insn, n);
  cs_close(&h);
  return (void*) end;
}
