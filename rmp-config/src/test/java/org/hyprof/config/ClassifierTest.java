package org.hyprof.config;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Lambda and method-reference bindings that make their body a thread entry. */
class ClassifierTest {
    @Test
    void threadEntryBindings() {
        assertTrue(Classifier.isThreadEntryBinding("java.lang.Runnable", "run", "()V", null));
        assertTrue(Classifier.isThreadEntryBinding("java.util.concurrent.Callable", "call", "()Ljava/lang/Object;", "java.util.concurrent.ExecutorService.submit"));
        assertTrue(Classifier.isThreadEntryBinding("java.util.function.Supplier", "get", "()Ljava/lang/Object;",
                "java.util.concurrent.CompletableFuture.supplyAsync"));
        assertFalse(Classifier.isThreadEntryBinding("java.util.function.Supplier", "get", "()Ljava/lang/Object;", "java.util.Optional.orElseGet"));
        assertFalse(Classifier.isThreadEntryBinding("java.util.function.Supplier", "get", "()Ljava/lang/Object;", null));
        assertFalse(Classifier.isThreadEntryBinding("java.util.function.Function", "apply", "(Ljava/lang/Object;)Ljava/lang/Object;", null));
        assertFalse(Classifier.isThreadEntryBinding("java.lang.Runnable", "call", "()V", null), "not the SAM");
    }

    @Test
    void aThreadEntryBodyIsThreadUnlessAProcessEntry() {
        assertEquals(Resolution.THREAD, Classifier.classify("a.Main", "java.lang.Object", List.of(), "lambda$main$0", "()V", true, true));
        assertEquals(Resolution.METHOD, Classifier.classify("a.Main", "java.lang.Object", List.of(), "lambda$main$0", "()V", true, false));
        assertEquals(Resolution.PROCESS, Classifier.classify("a.Main", "java.lang.Object", List.of(), "main", "([Ljava/lang/String;)V", true, true));
    }
}
