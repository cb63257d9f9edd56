package org.hyprof.instrument.dex;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding apksigner, and what the user is told without it (signing itself: tui DexIT). */
class DebugSignerTest {
    @TempDir Path dir;

    @Test
    void apksignerIsLookedUpOnThePath() throws Exception {
        assertNull(DebugSigner.findApksigner(""));
        assertNull(DebugSigner.findApksigner(dir.toString()));
        Path tool = dir.resolve("apksigner");
        Files.writeString(tool, "#!/bin/sh\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(tool, DebugSigner.findApksigner("/nonexistent" + File.pathSeparator + dir));
    }

    @Test
    void withoutApksignerTheMessageSaysHowToSign() {
        String how = DebugSigner.howToSign(Path.of("app.apk"), Path.of("/home/u/.android/debug.keystore"));
        assertTrue(how.contains("apt-get install apksigner"), how);
        assertTrue(how.contains("apksigner sign --ks /home/u/.android/debug.keystore --ks-pass pass:android --ks-key-alias androiddebugkey app.apk"), how);
    }
}
