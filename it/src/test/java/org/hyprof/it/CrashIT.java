package org.hyprof.it;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.hyprof.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workload.CallHeavy;

/** kill -9 of a profiled JVM: the session file's valid prefix imports, marked as crashed. */
class CrashIT {
    @TempDir Path dir;

    @Test
    void killedProcessKeepsWhatItRecorded() throws Exception {
        Path session = dir.resolve("killed.hyprof");
        Process p = new ProcessBuilder(Cli.java(), "-javaagent:" + Cli.agentJar() + "=out=" + session
                + ",snapshotMillis=100,resolutions=process;thread;method", "-cp", Cli.classpathOf(CallHeavy.class),
                "workload.CallHeavy", "kernels", "1000000").redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        // until what the file holds so far (a valid prefix, maybe a torn chunk) has calls of work():
        // the kill then finds them written, however slowly the program runs
        int[] looks = {0};
        Await.until("calls of work() in the session file", Duration.ofMinutes(3), () -> {
            Path copy = dir.resolve("so-far" + looks[0] + ".hyprof"), db = dir.resolve("so-far" + looks[0]++ + ".db");
            if (!Files.exists(session)) return false;
            Files.copy(session, copy);
            assertEquals(0, Cli.run("import", copy.toString(), "-o", db.toString()).exit);
            Map<String, String> w = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out).get("workload.CallHeavy.work()");
            return w != null && Long.parseLong(w.get("calls")) > 0;
        });
        assertTrue(p.isAlive(), "killed while it runs (else this test shows nothing)");
        p.destroyForcibly(); // SIGKILL: no shutdown hook runs
        p.waitFor();
        assertTrue(Files.size(session) > 0);

        Path db = dir.resolve("killed.db");
        Cli imp = Cli.run("import", session.toString(), "-o", db.toString());
        assertEquals(0, imp.exit, imp.err);
        assertTrue(imp.err.contains("no clean end"), imp.err);
        Cli proc = Cli.run("report", db.toString(), "--by", "process", "--format", "csv");
        assertTrue(proc.out.contains(",crashed,") || proc.out.contains(",damaged,"), proc.out);
        Map<String, String> work = Cli.csv(Cli.run("report", db.toString(), "--format", "csv").out).get("workload.CallHeavy.work()");
        assertNotNull(work);
        assertTrue(Long.parseLong(work.get("calls")) > 0, work.toString());
    }
}
