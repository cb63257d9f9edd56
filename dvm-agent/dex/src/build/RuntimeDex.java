import com.android.tools.r8.CompilationMode;
import com.android.tools.r8.D8;
import com.android.tools.r8.D8Command;
import com.android.tools.r8.JdkClassFileProvider;
import com.android.tools.r8.OutputMode;
import com.android.tools.r8.origin.Origin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.hyprof.instrument.RuntimeClasses;

/**
 * Build step of dvm-agent/dex (run by exec-maven-plugin at process-classes):
 * {@code java -cp CLASSPATH RuntimeDex.java OUT.dex}. Compiles every class of the runtime — the
 * same set an instrumented jar embeds ({@link RuntimeClasses}: {@code org.hyprof.runtime} and its
 * subpackages, from the class path: a directory in a reactor build before packaging, the runtime
 * jar otherwise) — to one DEX file with D8, for API level 21 and up.
 */
public final class RuntimeDex {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Map<String, byte[]> classes = RuntimeClasses.read(); // sorted by name: reproducible output
        D8Command.Builder b = D8Command.builder()
                .setMode(CompilationMode.RELEASE)
                .setMinApiLevel(21)
                .addLibraryResourceProvider(JdkClassFileProvider.fromSystemJdk());
        // classes only the JVM loads (@JvmOnly, and their nested classes) stay out of the DEX
        java.util.Set<String> jvmOnly = new java.util.HashSet<>();
        byte[] mark = "Lorg/hyprof/runtime/JvmOnly;".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (Map.Entry<String, byte[]> e : classes.entrySet())
            if (contains(e.getValue(), mark) || e.getKey().endsWith("JvmOnly.class")) jvmOnly.add(e.getKey().replace(".class", ""));
        int kept = 0;
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            String name = e.getKey().replace(".class", "");
            int nest = name.indexOf('$');
            if (jvmOnly.contains(name) || (nest > 0 && jvmOnly.contains(name.substring(0, nest)))) continue;
            b.addClassProgramData(e.getValue(), Origin.unknown());
            kept++;
        }
        Path tmp = Files.createTempDirectory("hyprof-runtime-dex");
        D8.run(b.setOutput(tmp, OutputMode.DexIndexed).build());
        Files.createDirectories(out.getParent());
        Files.move(tmp.resolve("classes.dex"), out, StandardCopyOption.REPLACE_EXISTING);
        Files.delete(tmp);
        System.out.println("hyprof-runtime.dex: " + kept + " classes (" + (classes.size() - kept) + " JVM-only left out), "
                + Files.size(out) + " bytes");
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int k = 0; k < needle.length; k++) if (hay[i + k] != needle[k]) continue outer;
            return true;
        }
        return false;
    }
}
