package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.junit.jupiter.api.Test;

/**
 * The type check must catch the mistakes an instrumenter makes. Each seeded method below is
 * instrumented-looking code with one such mistake (written by hand in smali); a correct twin
 * of it has no finding.
 */
class TypeCheckTest {
    static final String HEADER = ".class public Lseeded/S;\n.super Ljava/lang/Object;\n.field static total:I\n";
    static final String PROBE = "Lorg/hyprof/runtime/Probe;";

    /** Seeded mistake → the violation kind the check must report. */
    static final Map<String, String[]> SEEDED = new TreeMap<>(Map.of(
            "probeBetweenInvokeAndMoveResult", new String[] {"analysis", """
                .method static a()I
                    .registers 2
                    invoke-static {}, Lseeded/S;->b()I
                    const/16 v1, 0x1
                    invoke-static {v1}, %1$s->exit(I)V
                    move-result v0
                    return v0
                .end method
                """},
            "idRegisterHoldsAReference", new String[] {"argument type", """
                .method static a(Ljava/lang/String;)V
                    .registers 3
                    move-object v0, p0
                    invoke-static {p0}, %1$s->enter(I)V
                    return-void
                .end method
                """},
            "parameterNotMovedBack", new String[] {"return register type", """
                .method static a(I)I
                    .registers 4
                    const/16 v2, 0x1
                    invoke-static {v2}, %1$s->enter(I)V
                    return v0
                .end method
                """},
            "wideParameterMovedAs32Bits", new String[] {"move source type", """
                .method static a(J)J
                    .registers 6
                    move v0, p0
                    move v1, p1
                    return-wide v0
                .end method
                """},
            "probeOutsideTheMonitorsCatchAll", new String[] {"monitor coverage", """
                .method static a(Ljava/lang/Object;)V
                    .registers 4
                    monitor-enter p0
                    :try_start
                    sget v0, Lseeded/S;->total:I
                    :try_end
                    .catchall {:try_start .. :try_end} :release
                    const/16 v1, 0x2
                    invoke-static {v1}, %1$s->loopIter(I)V
                    monitor-exit p0
                    return-void
                    :release
                    move-exception v2
                    monitor-exit p0
                    throw v2
                .end method
                """},
            "uninitializedThisUsedBeforeSuper", new String[] {"receiver type", """
                .method constructor <init>()V
                    .registers 2
                    invoke-virtual {p0}, Ljava/lang/Object;->hashCode()I
                    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
                    return-void
                .end method
                """},
            "exceptionRegisterNotAThrowable", new String[] {"thrown register type", """
                .method static a()V
                    .registers 3
                    :try_start
                    invoke-static {}, Lseeded/S;->a()V
                    :try_end
                    .catchall {:try_start .. :try_end} :handler
                    return-void
                    :handler
                    move-exception v1
                    const/16 v1, 0x3
                    invoke-static {v1}, %1$s->exitThrow(I)V
                    throw v1
                .end method
                """},
            "tokenNotInitializedAtEntry", new String[] {"argument type", """
                .method static a(I)V
                    .registers 6
                    const/16 v3, 0x1
                    :try_start
                    sget v0, Lseeded/S;->total:I
                    invoke-static {v3}, %1$s->begin(I)I
                    move-result v4
                    invoke-static {v3, v4}, %1$s->end(II)V
                    return-void
                    :try_end
                    .catchall {:try_start .. :try_end} :handler
                    :handler
                    move-exception v2
                    invoke-static {v3, v4}, %1$s->endThrow(II)V
                    throw v2
                .end method
                """}));

    static List<TypeCheck.Violation> check(String method) throws Exception {
        String b = ".method static b()I\n.registers 1\nconst/4 v0, 0x0\nreturn v0\n.end method\n";
        DexBackedDexFile d = Fixtures.open(Fixtures.smali(21, List.of(HEADER + b + method.formatted(PROBE))));
        return TypeCheck.check(d, Fixtures.open(DexOutput.runtimeDex()));
    }

    @Test
    void everySeededMistakeIsCaught() throws Exception {
        for (Map.Entry<String, String[]> e : SEEDED.entrySet()) {
            List<TypeCheck.Violation> v = check(e.getValue()[1]);
            assertTrue(v.stream().anyMatch(x -> x.kind().equals(e.getValue()[0])),
                    e.getKey() + ": expected a '" + e.getValue()[0] + "' finding, got " + v);
        }
    }

    @Test
    void correctProbeCodeHasNoFinding() throws Exception {
        assertEquals(List.of(), check("""
                .method static a(Ljava/lang/Object;J)J
                    .registers 8
                    move-object v0, p0
                    move-wide v1, p1
                    const/16 v4, 0x1
                    invoke-static {v4}, %1$s->enter(I)V
                    :try_start
                    monitor-enter v0
                    :try_end
                    .catchall {:try_start .. :try_end} :out
                    :locked_start
                    const/16 v3, 0x2
                    invoke-static {v3}, %1$s->loopIter(I)V
                    monitor-exit v0
                    :locked_end
                    .catchall {:locked_start .. :locked_end} :release
                    invoke-static {v4}, %1$s->exit(I)V
                    return-wide v1
                    :release
                    move-exception v3
                    monitor-exit v0
                    throw v3
                    :out
                    move-exception v3
                    invoke-static {v4}, %1$s->exitThrow(I)V
                    throw v3
                .end method
                """));
    }

    /** The token API as the instrumenter emits it: ids, tokens and the counter set at entry. */
    @Test
    void correctTokenProbeCodeHasNoFinding() throws Exception {
        assertEquals(List.of(), check("""
                .method static a(I)I
                    .registers 10
                    move v0, p0
                    const/16 v3, 0x1
                    const/4 v4, 0x0
                    const/16 v5, 0x2
                    const/4 v6, 0x0
                    const/4 v7, 0x0
                    invoke-static {v3}, %1$s->begin(I)I
                    move-result v4
                    :try_start
                    invoke-static {v5}, %1$s->loopBegin(I)I
                    move-result v6
                    const/4 v7, 0x0
                    :head
                    if-lez v0, :exit
                    sget v1, Lseeded/S;->total:I
                    add-int/lit8 v0, v0, -0x1
                    add-int/lit8 v7, v7, 0x1
                    goto :head
                    :exit
                    invoke-static {v5, v6, v7}, %1$s->loopEnd(III)V
                    const/4 v6, 0x0
                    invoke-static {v3, v4}, %1$s->end(II)V
                    return v0
                    :try_end
                    .catchall {:try_start .. :try_end} :handler
                    :handler
                    move-exception v2
                    invoke-static {v5, v6, v7}, %1$s->loopEnd(III)V
                    invoke-static {v3, v4}, %1$s->endThrow(II)V
                    throw v2
                .end method
                """));
    }
}
