package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hyprof.config.ProfilingConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Structurally invalid DEX input ({@link InvalidDex}, written to {@code target/invalid/}) is
 * refused before anything is rewritten: one line naming the input (and the APK entry) and the
 * problem, no output. Valid files, ours included, pass the same checks. {@code InvalidDexIT}
 * confirms with {@code dexdump} that Android's verifier refuses the same files.
 */
class InvalidDexTest {
    static final Path CORPUS = Path.of("target", "invalid");

    @TempDir Path dir;

    @Test
    void everyDamagedFileIsRefusedWithOneLineAndNoOutput() throws Exception {
        Map<String, InvalidDex.Case> cases = InvalidDex.write(Fixtures.smaliDex(), CORPUS);
        assertTrue(cases.size() >= 15, "corpus size " + cases.size());
        for (InvalidDex.Case c : cases.values()) {
            Path in = CORPUS.resolve(c.file()), out = dir.resolve("out-" + c.file());
            IOException e = assertThrows(DexInstrumenter.DexInputException.class,
                    () -> DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null), c.file());
            String m = e.getMessage();
            assertTrue(m.startsWith(in + ": "), m);
            assertTrue(m.contains(c.expected()), c.file() + ": expected '" + c.expected() + "' in: " + m);
            assertEquals(1, m.lines().count(), m);
            assertNoOutput(out);
        }
    }

    @Test
    void aDamagedEntryOfAnApkIsNamedWithTheApk() throws Exception {
        InvalidDex.Case c = InvalidDex.cases(Fixtures.smaliDex()).get("code-offset.dex");
        Path apk = dir.resolve("app.apk"), out = dir.resolve("app-out.apk");
        TestApk.write(apk, TestApk.entries("org.hyprof.fixture", 21, Fixtures.smaliDex(), c.bytes()));
        IOException e = assertThrows(DexInstrumenter.DexInputException.class,
                () -> DexInstrumenter.instrument(apk, out, new ProfilingConfig(), null, null));
        assertTrue(e.getMessage().startsWith(apk + "!/classes2.dex: damaged DEX file: ") && e.getMessage().contains(c.expected()),
                e.getMessage());
        assertNoOutput(out);
    }

    @Test
    void aStaleSignatureIsANoteNotAnError() throws Exception {
        Path in = dir.resolve(InvalidDex.BAD_SIGNATURE), out = dir.resolve("sig-out.dex");
        Files.write(in, InvalidDex.badSignature(Fixtures.smaliDex()));
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        assertTrue(s.notes().stream().anyMatch(n -> n.startsWith(in + ": the SHA-1 signature in the header does not match")),
                s.notes().toString());
        assertTrue(DexFiles.signatureMatches(Files.readAllBytes(out)), "the output has a new signature");
    }

    @Test
    void aBadChecksumSaysHowToFixIt() throws Exception {
        byte[] bad = InvalidDex.cases(Fixtures.smaliDex()).get("bad-checksum.dex").bytes();
        String m = assertThrows(DexFiles.DexException.class, () -> DexFiles.read(bad, "x.dex", new ArrayList<>())).getMessage();
        assertTrue(m.startsWith("x.dex: bad checksum (header 0x") && m.contains("store the Adler-32 of bytes 12 to the end at offset 8"), m);
    }

    @Test
    void validFilesAndOurOwnOutputPassTheStructureCheck() throws Exception {
        DexStructure.check(DexOutput.runtimeDex());
        for (byte[] b : List.of(Fixtures.smaliDex(), Fixtures.javaDex(), Fixtures.javaDebugDex())) {
            DexStructure.check(b);
            Path in = dir.resolve("v.dex"), out = dir.resolve("v-out.dex");
            Files.write(in, b);
            DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
            assertEquals(List.of(), s.notes().stream().filter(n -> n.contains("SHA-1")).toList());
            List<String> notes = new ArrayList<>();
            DexFiles.read(Files.readAllBytes(out), out.toString(), notes);
            assertEquals(List.of(), notes);
        }
    }

    void assertNoOutput(Path out) throws IOException {
        assertFalse(Files.exists(out), out + " must not exist");
        assertFalse(Files.exists(DexInstrumenter.beside(out, ".manifest.tsv")));
        assertFalse(Files.exists(DexInstrumenter.beside(out, ".runtime.properties")));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().startsWith(".hyprof")).toList(), "no partial output");
        }
    }
}
