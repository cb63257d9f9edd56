package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hyprof.instrument.dex.Fixtures;
import org.hyprof.instrument.dex.InvalidDex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.Deterministic;

/** Bad input gives one line naming the input and the problem, and a non-zero exit. */
class BadInputIT {
    @TempDir Path dir;

    static void oneLine(Cli c) {
        assertNotEquals(0, c.exit);
        assertEquals(1, Cli.lines(c.err).size(), "one line: " + c.err);
        assertTrue(c.err.startsWith("hyprof: "), c.err);
    }

    @Test
    void badConfigFile() throws Exception {
        Path cfg = dir.resolve("bad.properties");
        Files.writeString(cfg, "mode=sometimes\n");
        Cli c = Cli.run("profile", "--config", cfg.toString(), "-o", dir.resolve("x.db").toString(), "--", Cli.java(), "-version");
        oneLine(c);
        assertTrue(c.err.contains(cfg.toString()) && c.err.contains("mode"), c.err);
        Files.writeString(cfg, "colour=blue\n");
        c = Cli.run("profile", "--config", cfg.toString(), "-o", dir.resolve("x.db").toString(), "--", Cli.java(), "-version");
        oneLine(c);
        assertTrue(c.err.contains("unknown setting 'colour'"), c.err);
        oneLine(Cli.run("profile", "--config", dir.resolve("missing.properties").toString(), "-o",
                dir.resolve("x.db").toString(), "--", Cli.java(), "-version"));
        assertFalse(Files.exists(dir.resolve("x.db")), "nothing created on bad input");
    }

    @Test
    void badAgentArgumentStopsTheJvmWithOneLine() throws Exception {
        Path agent = Cli.agentJar();
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + agent + "=budget=lots", "-cp",
                Cli.classpathOf(Deterministic.class), "workload.Deterministic").start();
        String err = new String(p.getErrorStream().readAllBytes()).strip();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor());
        assertEquals("hyprof: agent argument: budget: bad size 'lots' (examples: 4096, 64k, 16m, 1g)", err);
        assertFalse(out.contains("deterministic"), "main never ran");
    }

    @Test
    void badOptionValues() {
        oneLine(Cli.run("profile", "--mode", "always", "-o", dir.resolve("y.db").toString(), "--", Cli.java(), "-version"));
        oneLine(Cli.run("report", dir.resolve("none.db").toString()));
        oneLine(Cli.run("report", dir.resolve("none.db").toString(), "--by", "colour"));
        oneLine(Cli.run("import", dir.resolve("none.hyprof").toString(), "-o", dir.resolve("z.db").toString()));
        oneLine(Cli.run("instrument", dir.resolve("none.jar").toString(), "-o", dir.resolve("o.jar").toString()));
        // issue 20: the demo printed its start line before refusing the ABI
        Cli demo = Cli.run("demo", "--abi", "x86");
        oneLine(demo);
        assertEquals(2, demo.exit);
        assertEquals("hyprof: --abi: 'x86' is not one of arm64-v8a, armeabi-v7a", demo.err.strip());
    }

    @Test
    void placesThatCannotBeWrittenAreNamedNotTheirTemporaryFiles() throws Exception {
        Cli c = Cli.run("serve", "--listen", "127.0.0.1:0", "-o", "/proc/x.db");
        oneLine(c);
        assertEquals("hyprof: /proc/x.db: cannot create (no such file or directory)", c.err.strip());
        Path db = dir.resolve("s.db");
        c = Cli.run("serve", "--listen", "127.0.0.1:0", "-o", db.toString(), "--token-file", "/proc/t.tok");
        oneLine(c);
        assertTrue(c.err.contains("/proc/t.tok: cannot create the token file"), c.err);
        assertFalse(c.err.contains(".tmp"), c.err);
        assertFalse(Files.exists(db), "the session made a moment before is not left behind");
    }

    @Test
    void profileChecksWhereItsSessionGoesBeforeTheProgramRuns() throws Exception {
        Path nodir = dir.resolve("nodir");
        Cli c = Cli.run("profile", "-o", nodir.resolve("z.db").toString(), "--", Cli.java(), "-version");
        oneLine(c);
        assertTrue(c.err.contains("directory " + nodir + " does not exist"), c.err);
        assertFalse(Files.exists(nodir), "no directory made, as export and instrument make none");
        Path text = Files.writeString(dir.resolve("y.db"), "not a session\n");
        c = Cli.run("profile", "-o", text.toString(), "--append", "--", Cli.java(), "-version");
        oneLine(c);
        assertTrue(c.err.contains("y.db: not a readable hyprof session"), c.err);
        assertEquals("not a session\n", Files.readString(text));
        assertFalse(Files.exists(Path.of(text + ".hyprof")), "the program did not run");
    }

    /**
     * Issue 20: {@code profile -o text.txt/y.db} was an internal error (exit 70), {@code -o /proc/x.db}
     * on {@code native} and {@code import} "not a readable hyprof session" (it is an output), and
     * {@code instrument} made missing directories. Each output is named as one, before any work.
     */
    @Test
    void outputsThatCannotBeMadeAreNamedAsOutputsBeforeAnyWork() throws Exception {
        Path text = Files.writeString(dir.resolve("text.txt"), "hello\n");
        Path underText = text.resolve("y.db");
        Cli c = Cli.run("profile", "-o", underText.toString(), "--", Cli.java(), "-version");
        oneLine(c);
        assertEquals(1, c.exit, c.err);
        assertEquals("hyprof: " + underText + ": " + text + " is not a directory", c.err.strip());

        java.util.function.Function<String, Cli> nativeRunTo = out -> Cli.run("native",
                "../samples/native/lib/armeabi-v7a/libkernels.so", "--call", "count_loop", "--arg", "3", "-o", out);
        c = nativeRunTo.apply(underText.toString());
        oneLine(c);
        assertEquals("hyprof: " + underText + ": " + text + " is not a directory", c.err.strip());
        assertEquals("", c.out, "refused before the run");
        c = nativeRunTo.apply("/proc/x.db");
        oneLine(c);
        assertEquals(1, c.exit, c.err);
        assertTrue(c.err.startsWith("hyprof: /proc/x.db: cannot "), c.err);
        assertFalse(c.err.contains("not a readable hyprof session"), c.err);

        c = Cli.run("import", text.toString(), "-o", "/proc/x.db");
        oneLine(c);
        assertEquals(1, c.exit, c.err);
        assertTrue(c.err.startsWith("hyprof: /proc/x.db: cannot "), c.err); // create (root), or write in /proc
        c = Cli.run("import", text.toString(), "-o", underText.toString());
        oneLine(c);
        assertEquals(1, c.exit, c.err);
        assertEquals("hyprof: " + underText + ": " + text + " is not a directory", c.err.strip());

        Path dex = dir.resolve("app.dex");
        Files.write(dex, Fixtures.smaliDex());
        Path nodir = dir.resolve("nodir");
        c = Cli.run("instrument", dex.toString(), "-o", nodir.resolve("out.dex").toString());
        oneLine(c);
        assertEquals("hyprof: " + nodir.resolve("out.dex") + ": directory " + nodir + " does not exist", c.err.strip());
        assertFalse(Files.exists(nodir), "no directory made");
        c = Cli.run("instrument", dex.toString(), "-o", text.resolve("out.dex").toString());
        oneLine(c);
        assertEquals("hyprof: " + text.resolve("out.dex") + ": " + text + " is not a directory", c.err.strip());
        try (var s = Files.list(dir)) {
            assertEquals(java.util.Set.of(text, dex), java.util.Set.copyOf(s.toList()), "nothing written beside the inputs");
        }
        assertEquals("hello\n", Files.readString(text));
    }

    @Test
    void tuiOnAFileThatIsNotASessionSaysSoBeforeItNeedsATerminal() throws Exception {
        Path text = Files.writeString(dir.resolve("text.txt"), "hello\n");
        Cli c = Cli.run("tui", text.toString());
        oneLine(c);
        assertTrue(c.err.contains("text.txt: not a readable hyprof session"), c.err);
        assertFalse(c.err.contains("terminal"), c.err);
    }

    @Test
    void corruptSessionDatabase() throws Exception {
        Path db = dir.resolve("corrupt.db");
        Files.write(db, new byte[4096]);
        Cli c = Cli.run("report", db.toString());
        oneLine(c);
        assertTrue(c.err.contains(db.toString()), c.err);
    }

    @Test
    void aFailedImportLeavesNoSessionBehindAndReadingNeverWrites() throws Exception {
        Path bad = dir.resolve("bad.hyprof");
        Files.write(bad, new byte[] {'H', 'Y', 'P', 'R', 'O', 'F', 0, 2, 9, 9});
        Path db = dir.resolve("t.db");
        Cli c = Cli.run("import", bad.toString(), "-o", db.toString());
        oneLine(c);
        assertEquals(1, c.exit);
        assertTrue(c.err.contains(bad.toString()), c.err);
        assertFalse(Files.exists(db), "no empty session left behind");
        assertFalse(Files.exists(Path.of(db + "-wal")));
        c = Cli.run("import", bad.toString(), "-o", db.toString());
        assertFalse(c.err.contains("already exists"), "a retry is not refused: " + c.err);

        oneLine(c = Cli.run("import", dir.toString(), "-o", db.toString()));
        assertTrue(c.err.contains(dir + ": is a directory"), c.err);

        Path empty = dir.resolve("empty.db");
        Files.createFile(empty);
        oneLine(c = Cli.run("report", empty.toString()));
        assertTrue(c.err.contains(empty + ": empty file"), c.err);
        assertEquals(0, Files.size(empty), "report never writes to its input");
        oneLine(Cli.run("export", empty.toString(), "--format", "folded", "-o", dir.resolve("x.folded").toString()));
        assertEquals(0, Files.size(empty), "export never writes to its input");
    }

    @Test
    void damagedJarsAreOneLineErrorsAndAnUnreadableClassIsSkipped() throws Exception {
        Path junk = dir.resolve("junk.jar");
        Files.writeString(junk, "no zip here");
        Path out = dir.resolve("o.jar");
        Cli c = Cli.run("instrument", junk.toString(), "-o", out.toString());
        oneLine(c);
        assertEquals(1, c.exit, "bad input, not an internal error: " + c.err);
        assertFalse(c.err.contains("internal error"), c.err);

        // a jar with one class ASM cannot read, beside good ones
        Path jar = dir.resolve("mixed.jar");
        Path classes = Path.of(Cli.classpathOf(Deterministic.class));
        try (var jo = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            byte[] good = Files.isRegularFile(classes) ? null : Files.readAllBytes(classes.resolve("workload/Deterministic.class"));
            if (good == null) try (var z = new java.util.zip.ZipFile(classes.toFile())) {
                good = z.getInputStream(z.getEntry("workload/Deterministic.class")).readAllBytes();
            }
            jo.putNextEntry(new java.util.jar.JarEntry("workload/Deterministic.class"));
            jo.write(good);
            jo.closeEntry();
            jo.putNextEntry(new java.util.jar.JarEntry("workload/Broken.class"));
            jo.write(java.util.Arrays.copyOf(good, 40)); // a class file cut short
            jo.closeEntry();
        }
        c = Cli.run("instrument", jar.toString(), "-o", out.toString());
        assertEquals(0, c.exit, c.err);
        assertTrue(c.err.contains("skipped workload.Broken.*: class not readable, copied unchanged"), c.err);
        assertTrue(Files.readString(Path.of(out + ".manifest.tsv")).contains("workload.Broken\t*\t\tclass not readable"));
        // readable by whoever can read a file made here (not owner-only like a temporary file)
        Path plain = Files.createFile(dir.resolve("plain"));
        if (Files.getFileStore(dir).supportsFileAttributeView("posix"))
            assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out));
    }

    /** A fuzz finding (issue 20): an entry the JDK cannot decode threw IllegalArgumentException, an internal error. */
    @Test
    void aZipEntryThatCannotBeDecodedIsOneLine() throws Exception {
        byte[] apk;
        try (var in = Fixtures.class.getResourceAsStream("AppInputFuzzTestInputs/zip-entry-not-utf8.apk")) {
            apk = in.readAllBytes();
        }
        for (String name : new String[] {"bad.apk", "bad.jar"}) {
            Path bad = Files.write(dir.resolve(name), apk), out = dir.resolve("out-" + name);
            Cli c = Cli.run("instrument", bad.toString(), "-o", out.toString());
            oneLine(c);
            assertEquals(1, c.exit, c.err);
            assertTrue(c.err.startsWith("hyprof: " + bad + ": not a"), c.err);
            assertFalse(Files.exists(out));
        }
    }

    @Test
    void notAJarToInstrument() throws Exception {
        Path junk = dir.resolve("junk.jar");
        Files.writeString(junk, "no zip here");
        Path out = dir.resolve("out.jar");
        Cli c = Cli.run("instrument", junk.toString(), "-o", out.toString());
        oneLine(c);
        assertTrue(c.err.contains("not a jar"), c.err);
        assertFalse(Files.exists(out));
        try (var s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no partial output left");
        }
    }

    @Test
    void aDamagedDexIsRefusedBeforeRewritingWithOneLineAndNoOutput() throws Exception {
        InvalidDex.Case damaged = InvalidDex.cases(Fixtures.smaliDex()).get("code-offset.dex");
        Path bad = dir.resolve("bad.dex"), out = dir.resolve("out.dex");
        Files.write(bad, damaged.bytes());
        Cli c = Cli.run("instrument", bad.toString(), "-o", out.toString());
        oneLine(c);
        assertEquals(1, c.exit, c.err);
        assertTrue(c.err.startsWith("hyprof: " + bad + ": damaged DEX file: ") && c.err.contains(damaged.expected()), c.err);
        assertFalse(Files.exists(out), "no output");
        try (var s = Files.list(dir)) {
            assertEquals(java.util.List.of(bad), s.toList(), "nothing but the input: no manifest, no temporary file");
        }
    }
}
