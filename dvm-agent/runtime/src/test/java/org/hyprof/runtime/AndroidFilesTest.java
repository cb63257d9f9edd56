package org.hyprof.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import org.junit.jupiter.api.Test;

/** Where an instrumented app's session file goes on Android, decided without an Android device. */
class AndroidFilesTest {
    @Test
    void theVmNameTellsAndroidApart() {
        assertTrue(AndroidFiles.isAndroid("Dalvik"));
        assertFalse(AndroidFiles.isAndroid("OpenJDK 64-Bit Server VM"));
        assertFalse(AndroidFiles.isAndroid(null));
    }

    @Test
    void theProcessNameGivesThePackagesFilesDirectory() {
        assertEquals(new File("/data/data/com.example.app/files"), AndroidFiles.filesDirOf("com.example.app"));
        assertEquals(new File("/data/data/com.example.app/files"), AndroidFiles.filesDirOf("com.example.app:remote"));
        assertNull(AndroidFiles.filesDirOf("<pre-initialized>"));
        assertNull(AndroidFiles.filesDirOf("/system/bin/app_process"));
        assertNull(AndroidFiles.filesDirOf(""));
    }

    @Test
    void onTheJvmPathsAreUnchanged() {
        assertEquals("hyprof-1.hyprof", AndroidFiles.resolve("hyprof-1.hyprof"));
        assertEquals("/tmp/x.hyprof", AndroidFiles.resolve("/tmp/x.hyprof"));
    }
}
