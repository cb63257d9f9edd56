import com.android.tools.r8.CompilationMode;
import com.android.tools.r8.D8;
import com.android.tools.r8.D8Command;
import com.android.tools.r8.JdkClassFileProvider;
import com.android.tools.r8.OutputMode;
import com.android.tools.r8.origin.Origin;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Build step of dvm-agent/dex (run by exec-maven-plugin at process-classes):
 * {@code java -cp CLASSPATH RuntimeDex.java OUT.dex}. Compiles every class of the packages
 * {@code org.hyprof.runtime} and {@code org.hyprof.runtime.chunk} found on the class path (a directory in a reactor build before
 * packaging, the runtime jar otherwise) to one DEX file with D8, for API level 21 and up.
 */
public final class RuntimeDex {
    private static final String PKG = "org/hyprof/runtime/";

    /** A class file of the runtime: its package and the chunk codecs, nothing deeper. */
    private static boolean inRuntime(String path) {
        if (!path.startsWith(PKG) || !path.endsWith(".class")) return false;
        String rest = path.substring(PKG.length());
        return rest.indexOf('/') < 0 || (rest.startsWith("chunk/") && rest.indexOf('/', "chunk/".length()) < 0);
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        URI where = Class.forName("org.hyprof.runtime.Probe").getProtectionDomain().getCodeSource().getLocation().toURI();
        Path src = Path.of(where);
        List<String> names = new ArrayList<>();
        D8Command.Builder b = D8Command.builder()
                .setMode(CompilationMode.RELEASE)
                .setMinApiLevel(21)
                .addLibraryResourceProvider(JdkClassFileProvider.fromSystemJdk());
        if (Files.isDirectory(src)) {
            try (Stream<Path> s = Files.walk(src.resolve(PKG))) {
                for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                    String n = src.relativize(p).toString().replace('\\', '/');
                    if (!inRuntime(n)) continue;
                    names.add(n.substring(PKG.length()));
                    b.addClassProgramData(Files.readAllBytes(p), Origin.unknown());
                }
            }
        } else {
            try (JarFile jar = new JarFile(src.toFile())) {
                List<JarEntry> entries = Collections.list(jar.entries());
                entries.sort((x, y) -> x.getName().compareTo(y.getName()));
                for (JarEntry e : entries) {
                    String n = e.getName();
                    if (!inRuntime(n)) continue;
                    names.add(n.substring(PKG.length()));
                    try (InputStream in = jar.getInputStream(e)) {
                        b.addClassProgramData(in.readAllBytes(), Origin.unknown());
                    }
                }
            }
        }
        if (!names.contains("Probe.class")) throw new IllegalStateException("no runtime classes in " + src);
        Path tmp = Files.createTempDirectory("hyprof-runtime-dex");
        D8.run(b.setOutput(tmp, OutputMode.DexIndexed).build());
        Files.createDirectories(out.getParent());
        Files.move(tmp.resolve("classes.dex"), out, StandardCopyOption.REPLACE_EXISTING);
        Files.delete(tmp);
        System.out.println("hyprof-runtime.dex: " + names.size() + " classes from " + src + ", " + Files.size(out) + " bytes");
    }
}
