package org.hyprof.bb.emu;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** Which last instructions end a translation block (encodings from samples/native, as objdump shows them). */
class PageSplitsTest {
    @Test
    void a32() {
        assertTrue(PageSplits.a32EndsBlock(0x1affffeb));  // bne
        assertTrue(PageSplits.a32EndsBlock(0xebfffffe));  // bl
        assertTrue(PageSplits.a32EndsBlock(0xe8bd8070));  // pop {r4, r5, r6, pc}
        assertTrue(PageSplits.a32EndsBlock(0xe12fff1e));  // bx lr
        assertTrue(PageSplits.a32EndsBlock(0xe49df004));  // pop {pc} (ldr pc, [sp], #4)
        assertTrue(PageSplits.a32EndsBlock(0xe1a0f00e));  // mov pc, lr
        assertTrue(PageSplits.a32EndsBlock(0xef000000));  // svc 0
        assertFalse(PageSplits.a32EndsBlock(0xe023c001)); // eor ip, r3, r1
        assertFalse(PageSplits.a32EndsBlock(0xe0235394)); // mla r3, r4, r3, r5
        assertFalse(PageSplits.a32EndsBlock(0x1282204d)); // addne r2, r2, #77
        assertFalse(PageSplits.a32EndsBlock(0xe150000e)); // cmp r0, lr
        assertFalse(PageSplits.a32EndsBlock(0xed8d0b00)); // vstr d0, [sp]
    }

    @Test
    void thumb() {
        assertTrue(PageSplits.t16EndsBlock(0xd1dd));      // bne.n
        assertTrue(PageSplits.t16EndsBlock(0xe7fe));      // b.n
        assertTrue(PageSplits.t16EndsBlock(0xbd70));      // pop {r4, r5, r6, pc}
        assertTrue(PageSplits.t16EndsBlock(0x4770));      // bx lr
        assertTrue(PageSplits.t16EndsBlock(0xb11b));      // cbz r3, ...
        assertFalse(PageSplits.t16EndsBlock(0x4461));     // add r1, ip
        assertFalse(PageSplits.t16EndsBlock(0xbf4c));     // ite mi
        assertFalse(PageSplits.t16EndsBlock(0xb570));     // push {r4, r5, r6, lr}
        assertTrue(PageSplits.t32EndsBlock(0xf000, 0xf800));  // bl
        assertTrue(PageSplits.t32EndsBlock(0xf47f, 0xaffe));  // bne.w
        assertTrue(PageSplits.t32EndsBlock(0xe8bd, 0x8070));  // pop.w {r4, r5, r6, pc}
        assertTrue(PageSplits.t32EndsBlock(0xf85d, 0xfb04));  // ldr.w pc, [sp], #4
        assertTrue(PageSplits.t32EndsBlock(0xe8df, 0xf000));  // tbb [pc, r0]
        assertFalse(PageSplits.t32EndsBlock(0xea83, 0x13d1)); // eor.w r3, r3, r1, lsr #7
        assertFalse(PageSplits.t32EndsBlock(0xf3af, 0x8000)); // nop.w
        assertFalse(PageSplits.t32EndsBlock(0xed8d, 0x0b00)); // vstr d0, [sp]
        assertTrue(PageSplits.wide(0xea83));
        assertFalse(PageSplits.wide(0x4461));
    }

    @Test
    void a64() {
        assertTrue(PageSplits.a64EndsBlock(0x54fffdc1));  // b.ne
        assertTrue(PageSplits.a64EndsBlock(0x3747fdc2));  // tbnz w2, #8, ...
        assertTrue(PageSplits.a64EndsBlock(0xd65f03c0));  // ret
        assertTrue(PageSplits.a64EndsBlock(0x94000000));  // bl
        assertTrue(PageSplits.a64EndsBlock(0x14000005));  // b
        assertTrue(PageSplits.a64EndsBlock(0xb4000040));  // cbz x0, ...
        assertFalse(PageSplits.a64EndsBlock(0x4a0400c4)); // eor w4, w6, w4
        assertFalse(PageSplits.a64EndsBlock(0x1b072042)); // madd w2, w2, w7, w8
        assertFalse(PageSplits.a64EndsBlock(0xfd000000)); // str d0, [x0]
    }
}
