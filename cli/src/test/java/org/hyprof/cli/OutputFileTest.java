package org.hyprof.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Export's output file: refused when it is the input or cannot be written, replaced only when complete. */
class OutputFileTest {
    @TempDir Path dir;

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void theInputIsRefusedThroughAnyPath() throws IOException {
        Path in = Files.writeString(dir.resolve("s.db"), "session");
        Path link = Files.createSymbolicLink(dir.resolve("link.db"), in.getFileName());
        Path hard = Files.createLink(dir.resolve("hard.db"), in);
        Files.createDirectories(dir.resolve("sub"));
        for (Path out : List.of(in, dir.resolve("sub/../s.db"), Path.of("").toAbsolutePath().relativize(in), link, hard,
                dir.resolve("s.db-wal"), dir.resolve("s.db-journal"))) {
            UserError e = assertThrows(UserError.class, () -> OutputFile.check(out, in), out.toString());
            assertEquals(2, e.exitCode);
            assertTrue(e.getMessage().startsWith(out + ": "), e.getMessage());
        }
        assertEquals("session", Files.readString(in));
        OutputFile.check(dir.resolve("other.db"), in); // fine
    }

    @Test
    void aMissingDirectoryOrADirectoryIsAnInputError() throws IOException {
        Path in = Files.writeString(dir.resolve("s.db"), "session");
        Path missing = dir.resolve("nonexist/dir/x.trace");
        UserError e = assertThrows(UserError.class, () -> OutputFile.check(missing, in));
        assertEquals(1, e.exitCode);
        assertEquals(missing + ": directory " + missing.getParent() + " does not exist", e.getMessage());
        e = assertThrows(UserError.class, () -> OutputFile.check(dir, in));
        assertEquals(dir + ": is a directory", e.getMessage());
        Path notDir = in.resolve("x");
        e = assertThrows(UserError.class, () -> OutputFile.check(notDir, in));
        assertEquals(1, e.exitCode);
        assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
        e = assertThrows(UserError.class, () -> OutputFile.check(Path.of(""), in));
        assertEquals(2, e.exitCode);
    }

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporaryOne() throws IOException {
        Path out = Files.writeString(dir.resolve("x.folded"), "old");
        UserError e = assertThrows(UserError.class, () -> OutputFile.write(out, tmp -> {
            Files.writeString(tmp, "partial");
            throw new IOException("No space left on device");
        }));
        assertEquals(1, e.exitCode);
        assertEquals(out + ": cannot write (No space left on device)", e.getMessage());
        assertEquals("old", Files.readString(out));
        assertEquals(List.of(out), files(), "no temporary file left");
        assertThrows(IllegalStateException.class, () -> OutputFile.write(out, tmp -> {
            throw new IllegalStateException("a bug");
        }));
        assertEquals(List.of(out), files());
    }

    @Test
    void replacesThroughASymbolicLinkAndKeepsUsualPermissions() throws IOException {
        Path target = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target.getFileName());
        OutputFile.write(link, tmp -> Files.writeString(tmp, "new"));
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertEquals("new", Files.readString(target));
        Path fresh = dir.resolve("fresh.json");
        OutputFile.write(fresh, tmp -> Files.writeString(tmp, "x"));
        Path plain = Files.createFile(dir.resolve("plain"));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(fresh),
                "a new output gets what any new file gets (the umask), not a temporary file's rw-------");
    }

    @Test
    void aPipeIsWrittenIntoNotReplaced() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        String[] got = new String[1];
        Thread reader = new Thread(() -> {
            try {
                got[0] = Files.readString(fifo);
            } catch (IOException e) {
                got[0] = e.toString();
            }
        });
        reader.start();
        OutputFile.write(fifo, tmp -> Files.writeString(tmp, "through the pipe"));
        reader.join(60_000); // a deadline only: the reader ends as soon as the pipe is closed
        assertFalse(reader.isAlive(), "the reader got to the end of the pipe");
        assertEquals("through the pipe", got[0]);
        assertTrue(Files.exists(fifo) && !Files.isRegularFile(fifo), "still a pipe (devices such as /dev/stdout likewise)");
        assertEquals(List.of(fifo), files(), "no temporary file");
    }
}
