package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.hyprof.config.Manifest;
import org.hyprof.config.ProfilingConfig;
import org.jf.dexlib2.dexbacked.DexBackedDexFile;
import org.jf.dexlib2.iface.ClassDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** APK, DEX-file and directory outputs: what goes where, what is kept, what is dropped; bad input. */
class ApkLayoutTest {
    @TempDir Path dir;

    static Map<String, byte[]> read(Path zip) throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (ZipEntry e : Collections.list(z.entries())) {
                try (InputStream in = z.getInputStream(e)) {
                    m.put(e.getName(), in.readAllBytes());
                }
            }
        }
        return m;
    }

    /** The classes of a DEX file but a piece's holder ({@link #holders}). */
    static Set<String> classes(byte[] dex) {
        Set<String> s = new HashSet<>();
        for (ClassDef cd : Fixtures.open(dex).getClasses()) if (!cd.getType().startsWith(HOLDERS)) s.add(cd.getType());
        return s;
    }

    static final String HOLDERS = "Lorg/hyprof/pieces/";

    /** The pieces' holder classes in a DEX file ({@code org.hyprof.pieces.P_KEY}). */
    static Set<String> holders(byte[] dex) {
        Set<String> s = new HashSet<>();
        for (ClassDef cd : Fixtures.open(dex).getClasses()) if (cd.getType().startsWith(HOLDERS)) s.add(cd.getType());
        return s;
    }

    Path apk(String name, int minSdk, byte[]... dex) throws IOException {
        Path p = dir.resolve(name);
        TestApk.write(p, TestApk.entries("org.hyprof.fixture", minSdk, dex));
        return p;
    }

    @Test
    void theManifestParserReadsPackageAndMinSdk() {
        AndroidManifest m = AndroidManifest.parse(TestApk.manifest("com.example.app", 19));
        assertEquals("com.example.app", m.packageName);
        assertEquals(19, m.minSdk);
        assertThrows(IllegalArgumentException.class, () -> AndroidManifest.parse("<manifest/>".getBytes()));
    }

    @Test
    void multidexApkGetsTheRuntimeAsItsOwnDexFile() throws Exception {
        byte[] java = Fixtures.javaDex(), smali = Fixtures.smaliDex();
        Path in = apk("app.apk", 21, java, smali), out = dir.resolve("app-hyprof.apk");
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        Map<String, byte[]> before = read(in), after = read(out);
        assertEquals(List.of("classes.dex", "classes2.dex", "classes3.dex (the runtime)"), s.dexFiles());
        assertArrayEquals(DexOutput.runtimeDex(), after.get("classes3.dex"));
        assertEquals(classes(java), classes(after.get("classes.dex")), "same classes, rewritten in place");
        assertEquals(Set.of(HOLDERS + "P_" + s.pieceKey() + ";"), holders(after.get("classes.dex")), "the piece's holder, first DEX file");
        assertEquals(Set.of(), holders(after.get("classes2.dex")));
        assertEquals(classes(smali), classes(after.get("classes2.dex")));
        for (String gone : List.of("META-INF/CERT.SF", "META-INF/CERT.RSA")) assertFalse(after.containsKey(gone), gone);
        String mf = new String(after.get("META-INF/MANIFEST.MF"), StandardCharsets.UTF_8);
        assertTrue(mf.contains("Created-By: fixture") && !mf.contains("Digest"), mf);
        for (String kept : List.of("AndroidManifest.xml", "resources.arsc", "res/raw/greeting.txt", "lib/x86_64/libfixture.so", "assets/data.bin"))
            assertArrayEquals(before.get(kept), after.get(kept), kept + " copied unchanged");
        String asset = DexInstrumenter.manifestAsset(s.pieceKey());
        assertTrue(s.pieceKey().matches("[0-9a-f]{16}"), s.pieceKey());
        Manifest m = Manifest.parse(new String(after.get(asset), StandardCharsets.UTF_8), "asset");
        assertEquals(s.manifest().probes().size(), m.probes().size());
        assertEquals(Files.readString(DexInstrumenter.beside(out, ".manifest.tsv")),
                new String(after.get(asset), StandardCharsets.UTF_8), "the same manifest beside");
        assertFalse(after.containsKey("assets/hyprof/manifest.tsv"), "no single manifest: the piece's only");
        assertTrue(new String(after.get(DexInstrumenter.OPTIONS_ASSET), StandardCharsets.UTF_8).contains("mode=aggregate"));
        assertEquals(21, s.minSdk());
        assertStoredEntriesAligned(out);
    }

    @Test
    void belowApi21TheRuntimeGoesIntoClassesDex() throws Exception {
        Path in = apk("old.apk", 19, Fixtures.javaDex(), Fixtures.smaliDex()), out = dir.resolve("old-hyprof.apk");
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null);
        Map<String, byte[]> after = read(out);
        assertEquals(List.of("classes.dex (with the runtime)", "classes2.dex"), s.dexFiles());
        assertFalse(after.containsKey("classes3.dex"));
        Set<String> primary = classes(after.get("classes.dex"));
        assertTrue(primary.containsAll(classes(DexOutput.runtimeDex())), "every runtime class in classes.dex");
        assertTrue(primary.containsAll(classes(Fixtures.javaDex())));
    }

    @Test
    void classesSpillIntoAnExtraDexFileAtTheReferenceLimit() throws Exception {
        byte[] java = Fixtures.javaDex();
        Path in = dir.resolve("in");
        Files.createDirectories(in);
        Files.write(in.resolve("classes.dex"), java);
        int limit = Fixtures.open(java).getMethodSection().size() + 2;
        Path out = dir.resolve("out");
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null, limit);
        assertTrue(s.spilledClasses() > 0, "some classes spilled");
        assertEquals(List.of("classes.dex", "classes2.dex (spilled classes)", "classes3.dex (the runtime)"), s.dexFiles());
        Set<String> all = new HashSet<>();
        int total = 0;
        for (String f : List.of("classes.dex", "classes2.dex")) {
            DexBackedDexFile d = Fixtures.open(Files.readAllBytes(out.resolve(f)));
            assertTrue(d.getMethodSection().size() <= limit, f);
            total += d.getClasses().size();
            all.addAll(classes(Files.readAllBytes(out.resolve(f))));
            assertEquals(f.equals("classes.dex") ? Set.of(HOLDERS + "P_" + s.pieceKey() + ";") : Set.of(),
                    holders(Files.readAllBytes(out.resolve(f))), "the holder is never spilled");
        }
        assertEquals(classes(java), all, "every class exactly once");
        assertEquals(classes(java).size() + 1, total, "and the holder");
    }

    @Test
    void aSingleDexFileThatNeedsTwoIsRefusedWithoutOutput() throws Exception {
        byte[] java = Fixtures.javaDex();
        Path in = dir.resolve("one.dex"), out = dir.resolve("one-out.dex");
        Files.write(in, java);
        Path whole = dir.resolve("whole.dex");
        DexInstrumenter.instrument(in, whole, new ProfilingConfig(), null, null);
        int limit = Fixtures.open(Files.readAllBytes(whole)).getMethodSection().size() - 1; // one short
        IOException e = assertThrows(DexInstrumenter.DexInputException.class,
                () -> DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null, limit));
        assertTrue(e.getMessage().startsWith(in + ": ") && e.getMessage().contains("give a directory"), e.getMessage());
        assertNoOutput(out);
    }

    @Test
    void includeAndExcludeChooseTheClassesWithProbes() throws Exception {
        Path in = dir.resolve("sel.dex");
        Files.write(in, Fixtures.smaliDex());
        ProfilingConfig cfg = new ProfilingConfig().set("include", "smalifix.*", "test").set("exclude", "smalifix.B*;smalifix.SmaliMain", "test");
        DexInstrumenter.Summary s = DexInstrumenter.instrument(in, dir.resolve("sel-out.dex"), cfg, null, null);
        Set<String> withProbes = new HashSet<>();
        s.manifest().probes().forEach(p -> withProbes.add(p.className()));
        assertEquals(Set.of("smalifix.LoopAtZero", "smalifix.MoveResultExit", "smalifix.MonitorLoop", "smalifix.Payloads",
                "smalifix.CtorThrow"), withProbes);
        assertEquals(7, s.classes(), "every class is still written");
        assertEquals(classes(Fixtures.smaliDex()), classes(Files.readAllBytes(dir.resolve("sel-out.dex"))).stream()
                .filter(t -> !t.startsWith("Lorg/hyprof/runtime/")).collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void badInputsAreOneLineErrorsAndLeaveNothing() throws Exception {
        byte[] good = Fixtures.smaliDex();
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("truncated.dex", java.util.Arrays.copyOf(good, good.length / 2));
        byte[] bad = good.clone();
        bad[bad.length - 10] ^= 0x55;
        cases.put("checksum.dex", bad);
        cases.put("notzip.apk", "this is not a zip".getBytes());
        cases.put("tiny.dex", "dex\n035\0".getBytes());
        Map<String, String> expect = Map.of("truncated.dex", "truncated DEX file", "checksum.dex", "bad checksum",
                "notzip.apk", "not an APK/zip file", "tiny.dex", "truncated DEX file");
        for (Map.Entry<String, byte[]> c : cases.entrySet()) {
            Path in = dir.resolve(c.getKey()), out = dir.resolve("out-" + c.getKey());
            Files.write(in, c.getValue());
            IOException e = assertThrows(DexInstrumenter.DexInputException.class,
                    () -> DexInstrumenter.instrument(in, out, new ProfilingConfig(), null, null), c.getKey());
            assertTrue(e.getMessage().startsWith(in.toString()) && e.getMessage().contains(expect.get(c.getKey())), e.getMessage());
            assertEquals(1, e.getMessage().lines().count());
            assertNoOutput(out);
        }
        Path nodex = dir.resolve("nodex.apk");
        Map<String, byte[]> entries = TestApk.entries("x.y", 21);
        TestApk.write(nodex, entries);
        IOException e = assertThrows(DexInstrumenter.DexInputException.class,
                () -> DexInstrumenter.instrument(nodex, dir.resolve("o.apk"), new ProfilingConfig(), null, null));
        assertTrue(e.getMessage().contains("no classes.dex inside"), e.getMessage());
        assertNoOutput(dir.resolve("o.apk"));
        Path zipBadDex = apk("baddex.apk", 21, cases.get("checksum.dex"));
        e = assertThrows(DexInstrumenter.DexInputException.class,
                () -> DexInstrumenter.instrument(zipBadDex, dir.resolve("o2.apk"), new ProfilingConfig(), null, null));
        assertTrue(e.getMessage().startsWith(zipBadDex + "!/classes.dex: bad checksum"), e.getMessage());
        Path twice = dir.resolve("twice.dex");
        Files.write(twice, good);
        DexInstrumenter.instrument(twice, dir.resolve("twice-1.dex"), new ProfilingConfig(), null, null);
        e = assertThrows(DexInstrumenter.DexInputException.class,
                () -> DexInstrumenter.instrument(dir.resolve("twice-1.dex"), dir.resolve("twice-2.dex"), new ProfilingConfig(), null, null));
        assertTrue(e.getMessage().contains("already instrumented"), e.getMessage());
    }

    void assertNoOutput(Path out) throws IOException {
        assertFalse(Files.exists(out), out + " must not exist");
        assertFalse(Files.exists(DexInstrumenter.beside(out, ".manifest.tsv")));
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> tmp = new ArrayList<>();
            s.filter(p -> p.getFileName().toString().startsWith(".hyprof")).forEach(tmp::add);
            assertEquals(List.of(), tmp, "no partial output");
        }
    }

    /** Every stored entry's data starts at a multiple of 4 (4096 for .so), as zipalign -p leaves it. */
    static void assertStoredEntriesAligned(Path zip) throws IOException {
        byte[] b = Files.readAllBytes(zip);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = b.length - 22;
        while (bb.getInt(eocd) != 0x06054b50) eocd--;
        int entries = bb.getShort(eocd + 10) & 0xffff, p = bb.getInt(eocd + 16);
        int stored = 0;
        for (int i = 0; i < entries; i++) {
            int method = bb.getShort(p + 10) & 0xffff, nameLen = bb.getShort(p + 28) & 0xffff;
            int extraLen = bb.getShort(p + 30) & 0xffff, commentLen = bb.getShort(p + 32) & 0xffff;
            String name = new String(b, p + 46, nameLen, StandardCharsets.UTF_8);
            int local = bb.getInt(p + 42);
            int data = local + 30 + (bb.getShort(local + 26) & 0xffff) + (bb.getShort(local + 28) & 0xffff);
            if (method == 0) {
                stored++;
                assertEquals(0, data % (name.endsWith(".so") ? 4096 : 4), name + " data at " + data);
            }
            p += 46 + nameLen + extraLen + commentLen;
        }
        assertTrue(stored >= 3, "stored entries checked: " + stored);
    }
}
