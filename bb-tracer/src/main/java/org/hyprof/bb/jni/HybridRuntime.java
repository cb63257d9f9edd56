package org.hyprof.bb.jni;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import org.hyprof.bb.NativeException;
import org.hyprof.bb.Tracer;
import org.hyprof.bb.cost.CpuProfile;
import org.hyprof.bb.disasm.Listing;
import org.hyprof.bb.emu.Engine;
import org.hyprof.bb.emu.Limits;
import org.hyprof.runtime.Hyprof;
import org.hyprof.runtime.NativeCall;
import org.hyprof.runtime.SessionFormat;
import org.hyprof.runtime.chunk.NativeBlocksChunk;
import org.hyprof.runtime.chunk.NativeEpochsChunk;
import org.hyprof.runtime.chunk.PayloadWriter;
import org.hyprof.runtime.chunk.TextChunk;

/**
 * The hybrid agent's native side: the app's {@code System.loadLibrary}/{@code System.load} load
 * its {@code .so} files (for the chosen ABI) into bb-tracer, and every {@code native} method of
 * an instrumented class runs its machine code in the emulator through an emulated JNIEnv. Each
 * call is an epoch: its blocks are counted, its cost (instructions, cycles, estimated device time
 * and energy under the CPU profile) is charged to the Java method, the emulator's wall time is
 * replaced by the estimated device time on the thread's clock, and an epoch record goes into the
 * session, followed at the end by every block executed (disassembly, categories, executions per
 * native method).
 *
 * <p>Errors (a library missing or for another ABI, a JNI function or libc import the emulator does
 * not have, a fault in native code) are printed once as one line, recorded in the session, and
 * reach the app as the error the JVM would raise: {@link UnsatisfiedLinkError} for linking,
 * {@link InternalError} for emulation failures. Recording of the Java side goes on.
 */
public final class HybridRuntime implements NativeCall.Handler {
    /** ABIs, in the order a directory is searched when none is chosen. */
    public static final List<String> ABIS = List.of("arm64-v8a", "armeabi-v7a");
    private static final int EPOCHS_PER_CHUNK = 1024;
    /** Probe id of epochs and block counts of JNI_OnLoad (charged to the method that loaded the library). */
    public static final int ON_LOAD = -1;

    private final Path dir;
    private final String abi;
    private final CpuProfile cpu;
    private final Engine engine;
    private final org.hyprof.bb.emu.Userland userland;
    private final IntFunction<String> methodKeys;
    private volatile Limits limits = Limits.DEFAULT;
    /** Where native code's files live (userland bionic): given, or a temporary one made at the first load. */
    private org.hyprof.bb.emu.Sandbox sandbox;
    private final List<NativeLibrary> libraries = new CopyOnWriteArrayList<>();
    private volatile NativeMethod[] methods = new NativeMethod[0];
    private final Set<String> reported = new LinkedHashSet<>();
    private final Object sessionLock = new Object();
    /** Epochs not yet sent (at most EPOCHS_PER_CHUNK), guarded by sessionLock. */
    private final List<NativeEpochsChunk.Epoch> epochs = new ArrayList<>();
    private int errorCount, libraryCount;
    private long nextEpoch;
    private boolean finished;

    /**
     * @param dir        the app's native libraries: {@code DIR/<abi>/lib*.so}, {@code DIR/lib/<abi>/} (an
     *                   unpacked APK) or {@code DIR/lib*.so}
     * @param abi        {@code arm64-v8a}, {@code armeabi-v7a}, or null for the first found
     * @param cpu        CPU profile, or null for the default of each library's instruction set
     * @param methodKeys probe id → {@code class\tname\tdescriptor} of the instrumented method
     */
    public HybridRuntime(Path dir, String abi, CpuProfile cpu, IntFunction<String> methodKeys) {
        this(dir, abi, cpu, Engine.defaultEngine(), methodKeys);
    }

    /** The same on a chosen emulator engine. */
    public HybridRuntime(Path dir, String abi, CpuProfile cpu, Engine engine, IntFunction<String> methodKeys) {
        this(dir, abi, cpu, engine, org.hyprof.bb.emu.Userland.named(null), methodKeys);
    }

    /** The same with a choice of what the libraries' imports bind to ({@link org.hyprof.bb.emu.Userland}). */
    public HybridRuntime(Path dir, String abi, CpuProfile cpu, Engine engine, org.hyprof.bb.emu.Userland userland, IntFunction<String> methodKeys) {
        if (abi != null && !ABIS.contains(abi))
            throw new NativeException("unknown ABI '" + abi + "' (known: " + String.join(", ", ABIS) + ")");
        if (!Files.isDirectory(dir)) throw new NativeException(dir + ": no such directory (native libraries)");
        this.dir = dir;
        this.abi = abi;
        this.cpu = cpu;
        this.engine = engine;
        this.userland = userland;
        this.methodKeys = methodKeys;
    }

    /**
     * Starts a hybrid run in this JVM (called by the agent, through its own class loader):
     * settings {@code nativeLibs}, {@code abi}, {@code cpu} (a built-in profile name or a file),
     * {@code engine} ({@link Engine#named}: libunicorn, unidbg or auto), {@code userland}
     * ({@link org.hyprof.bb.emu.Userland#named}: stubs or bionic), {@code nativeLimit}
     * ({@link Limits#parse}: instructions and wall time per native call).
     * Installs the handler the instrumented code calls and writes the run's settings into the
     * session. Throws {@link NativeException} with a one-line message for bad settings.
     */
    public static HybridRuntime install(Map<String, String> settings, IntFunction<String> methodKeys) {
        String libs = settings.get("nativeLibs");
        if (libs == null) throw new NativeException("nativeLibs is not set");
        String cpuName = settings.get("cpu");
        HybridRuntime h = new HybridRuntime(Path.of(libs), settings.get("abi"),
                cpuName == null || cpuName.isEmpty() ? null : CpuProfile.load(cpuName), Engine.named(settings.get("engine")),
                org.hyprof.bb.emu.Userland.named(settings.get("userland")), methodKeys);
        h.limits(Limits.parse(settings.get("nativeLimit")));
        String dirName = settings.get("nativeSandbox");
        if (dirName != null && !dirName.isEmpty()) h.sandbox(org.hyprof.bb.emu.Sandbox.at(Path.of(dirName)));
        StringBuilder info = new StringBuilder();
        info.append("libraries.dir=").append(escape(h.dir.toAbsolutePath().toString())).append('\n');
        info.append("engine=").append(h.engine.id).append('\n');
        if (h.userland != org.hyprof.bb.emu.Userland.STUBS) info.append("userland=").append(h.userland.id).append('\n');
        info.append("limits=").append(escape(h.limits.describe())).append('\n');
        if (h.sandbox != null) info.append("sandbox=").append(escape(h.sandbox.root().toString())).append('\n');
        if (h.abi != null) info.append("abi=").append(h.abi).append('\n');
        if (h.cpu != null) h.describeCpu(info, h.cpu);
        info(info);
        NativeCall.install(h);
        Hyprof.beforeStop(h::finish);
        return h;
    }

    /**
     * The limits of each native call (libraries loaded from now on; default {@link Limits#DEFAULT}).
     * A call that exceeds them fails like any emulation error: one line, noted in the session,
     * an {@link InternalError} in the app; the Java side goes on being recorded.
     */
    public void limits(Limits l) {
        this.limits = l;
    }

    /**
     * The directory native code's files live in ({@code --native-sandbox}; userland bionic), for
     * libraries loaded from now on; kept afterwards. Without one, the first library loaded gets a
     * temporary directory, shared by the libraries and removed when recording ends.
     */
    public synchronized void sandbox(org.hyprof.bb.emu.Sandbox s) {
        this.sandbox = s;
    }

    private synchronized org.hyprof.bb.emu.Sandbox sandboxForLoad() {
        if (sandbox == null && userland == org.hyprof.bb.emu.Userland.BIONIC) sandbox = org.hyprof.bb.emu.Sandbox.temporary();
        return sandbox;
    }

    // ------------------------------------------------------------------ loading

    @Override
    public void loadLibrary(String name) {
        long t0 = System.nanoTime();
        Path file = find(name);
        if (file == null) {
            String where = abi != null ? dir + "/" + abi + "/, " + dir + "/lib/" + abi + "/ and " + dir + "/"
                    : dir + "/{" + String.join(",", ABIS) + "}/ and " + dir + "/";
            throw linkError("native library lib" + name + ".so not found (looked in " + where + ")");
        }
        load(file, callerLoader(), t0);
    }

    @Override
    public void load(String path) {
        long t0 = System.nanoTime();
        // an app computes a device path; the same file name under the libraries directory stands in
        Path p = Path.of(path);
        Path file = Files.isRegularFile(p) ? p : find(stripLib(p.getFileName().toString()));
        if (file == null) throw linkError(path + ": not found (nor " + p.getFileName() + " under " + dir + ")");
        load(file, callerLoader(), t0);
    }

    private static String stripLib(String fileName) {
        String n = fileName.endsWith(".so") ? fileName.substring(0, fileName.length() - 3) : fileName;
        return n.startsWith("lib") ? n.substring(3) : n;
    }

    private Path find(String name) {
        String file = "lib" + name + ".so";
        List<Path> candidates = new ArrayList<>();
        for (String a : abi != null ? List.of(abi) : ABIS) {
            candidates.add(dir.resolve(a).resolve(file));
            candidates.add(dir.resolve("lib").resolve(a).resolve(file));
        }
        candidates.add(dir.resolve(file));
        for (Path c : candidates) if (Files.isRegularFile(c)) return c;
        return null;
    }

    private void load(Path file, ClassLoader loader, long t0) {
        Path real = file.toAbsolutePath().normalize();
        synchronized (this) {
            for (NativeLibrary l : libraries) if (l.file.equals(real)) return; // loaded once, like the JVM
            NativeLibrary lib;
            try {
                lib = new NativeLibrary(real, cpu, engine, userland, sandboxForLoad(), loader);
                lib.tracer.emulator.limits(limits);
            } catch (NativeException e) {
                throw linkError(e.getMessage());
            }
            if (abi != null && lib.arm64 != abi.equals("arm64-v8a")) {
                lib.close();
                throw linkError(NativeLibrary.wrongAbi(real, abi, lib.arm64).getMessage());
            }
            libraries.add(lib);
            int n = libraryCount++;
            StringBuilder info = new StringBuilder();
            info.append("library.").append(n).append('=').append(escape(real.toString())).append('\n');
            info.append("library.").append(n).append(".arch=").append(lib.arm64 ? "arm64-v8a" : "armeabi-v7a").append('\n');
            if (cpu == null) describeCpu(info, lib.cpu());
            info(info);
            NativeLibrary.Call c;
            try {
                c = lib.onLoad(loader, ON_LOAD, t0);
            } catch (NativeException e) {
                throw linkError("JNI_OnLoad of " + real.getFileName() + " failed: " + e.getMessage());
            }
            if (c == null) return;
            charge(c);
            epoch(ON_LOAD, "JNI_OnLoad (" + real.getFileName() + ")", c);
            c.finish();
            if (c.pending() != null) throw linkError("JNI_OnLoad of " + real.getFileName() + " left an exception pending: " + c.pending());
            int version = (Integer) c.result();
            if (version < 0) throw linkError("JNI_OnLoad of " + real.getFileName() + " returned " + version + " (JNI_ERR)");
        }
    }

    /** The class loader of the class that called System.loadLibrary (JNI_OnLoad's FindClass uses it). */
    private static ClassLoader callerLoader() {
        Class<?> c = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(s -> s
                .map(StackWalker.StackFrame::getDeclaringClass)
                .filter(k -> k != HybridRuntime.class && k != NativeCall.class)
                .findFirst().orElse(null));
        return c != null && c.getClassLoader() != null ? c.getClassLoader() : ClassLoader.getSystemClassLoader();
    }

    private void describeCpu(StringBuilder info, CpuProfile p) {
        String prefix = cpu != null ? "cpu" : "cpu." + p.arch;
        info.append(prefix).append(".profile=").append(p.name).append('\n');
        info.append(prefix).append(".frequency.mhz=").append(p.frequencyHz / 1e6).append('\n');
        info.append(prefix).append(".power.mw=").append(p.powerMilliwatts).append('\n');
    }

    // ------------------------------------------------------------------ calls

    @Override
    public Object invoke(int nativeId, Object self, Object[] args) throws Throwable {
        long t0 = System.nanoTime();
        NativeMethod m = method(nativeId, self);
        NativeLibrary.Call c;
        try {
            c = m.library().call(m, self, args, t0);
        } catch (NativeException e) {
            throw emulationError(m.displayName() + " (" + m.symbol() + "): " + e.getMessage());
        }
        charge(c);
        epoch(m.id(), m.symbol(), c);
        c.finish();
        if (c.pending() != null) throw c.pending();
        return c.result();
    }

    private static void charge(NativeLibrary.Call c) {
        Tracer.Cost cost = c.cost();
        NativeCall.charge(cost.instructions(), Math.round(cost.cycles()), Math.round(cost.timeNanos()),
                Math.round(cost.energyPicojoules()));
    }

    private NativeMethod method(int id, Object self) {
        NativeMethod[] ms = methods;
        NativeMethod m = id < ms.length ? ms[id] : null;
        if (m != null) return m;
        synchronized (this) {
            ms = methods;
            if (id < ms.length && ms[id] != null) return ms[id];
            m = bind(id, self);
            if (id >= ms.length) ms = Arrays.copyOf(ms, Math.max(id + 1, ms.length * 2));
            else ms = ms.clone();
            ms[id] = m;
            methods = ms;
            return m;
        }
    }

    /** Finds a native method's code: RegisterNatives first, then Java_… symbols (short, then long form). */
    private NativeMethod bind(int id, Object self) {
        String key = methodKeys.apply(id);
        if (key == null) throw emulationError("native method #" + id + " is not in the probe manifest");
        String[] k = key.split("\t");
        String className = k[0], name = k[1], desc = k[2];
        Class<?> declaring = self instanceof Class<?> c && c.getName().equals(className) ? c : null;
        for (Class<?> t = self == null ? null : self.getClass(); declaring == null && t != null; t = t.getSuperclass())
            if (t.getName().equals(className)) declaring = t;
        if (declaring == null) throw emulationError("cannot find class " + className + " of native method " + name + desc);
        Method reflected = null;
        for (Method rm : declaring.getDeclaredMethods())
            if (rm.getName().equals(name) && JniEnv.descriptor(rm.getParameterTypes(), rm.getReturnType()).equals(desc)) reflected = rm;
        if (reflected == null) throw emulationError("cannot find " + className + "." + name + desc);
        boolean isStatic = Modifier.isStatic(reflected.getModifiers());
        String shortName = "Java_" + mangle(className) + "_" + mangle(name);
        String longName = shortName + "__" + mangle(desc.substring(1, desc.indexOf(')')));
        for (NativeLibrary lib : libraries) {
            Long registered = lib.env.registered.get(className + "." + name + desc);
            if (registered != null)
                return new NativeMethod(id, declaring, name, desc, isStatic, reflected.getParameterTypes(),
                        reflected.getReturnType(), lib, registered, "(RegisterNatives) " + name);
        }
        for (NativeLibrary lib : libraries) {
            for (String sym : new String[] {shortName, longName}) {
                if (lib.exports(sym))
                    return new NativeMethod(id, declaring, name, desc, isStatic, reflected.getParameterTypes(),
                            reflected.getReturnType(), lib, lib.address(sym), sym);
            }
        }
        throw linkError("'" + reflected.getReturnType().getTypeName() + " " + className + "." + name + desc
                + "': no native code for it (" + shortName + ") in the libraries loaded"
                + (libraries.isEmpty() ? " (none: did the app call System.loadLibrary?)" : ""));
    }

    /** JNI's name mangling (JNI spec, "Resolving Native Method Names"). */
    static String mangle(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '.' || c == '/') b.append('_');
            else if (c == '_') b.append("_1");
            else if (c == ';') b.append("_2");
            else if (c == '[') b.append("_3");
            else if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') b.append(c);
            else b.append(String.format("_0%04x", (int) c));
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ session records

    private void epoch(int probeId, String symbol, NativeLibrary.Call c) {
        Tracer.Cost cost = c.cost();
        synchronized (sessionLock) {
            if (finished) return;
            epochs.add(new NativeEpochsChunk.Epoch(++nextEpoch, Thread.currentThread().getId(), probeId, symbol, cost.blocks(),
                    cost.instructions(), Math.round(cost.cycles()), Math.round(cost.timeNanos()),
                    Math.round(cost.energyPicojoules()), c.emulatorNanos()));
            if (epochs.size() == EPOCHS_PER_CHUNK) flushEpochs();
        }
    }

    private void flushEpochs() {
        if (epochs.isEmpty()) return;
        chunk(SessionFormat.NATIVE_EPOCHS, new NativeEpochsChunk(new ArrayList<>(epochs))::encode);
        epochs.clear();
    }

    /** At the end of recording: the last epochs, then every block executed, with disassembly. */
    void finish() {
        synchronized (sessionLock) {
            if (finished) return;
            flushEpochs();
            finished = true;
        }
        StringBuilder notes = new StringBuilder();
        for (int i = 0; i < libraries.size(); i++) {
            // system calls the libraries' code made that the emulator answered ENOSYS (userland bionic)
            org.hyprof.bb.emu.Syscalls sc = libraries.get(i).tracer.emulator.syscalls;
            if (sc == null) continue;
            if (!sc.unknown().isEmpty()) {
                StringBuilder v = new StringBuilder();
                sc.unknown().forEach((k, n) -> v.append(v.length() == 0 ? "" : ", ").append(k).append(" x").append(n));
                notes.append("library.").append(i).append(".syscalls.enosys=").append(escape(v.toString())).append('\n');
            }
            // the threads native code started: their blocks are in the epochs of the calls they ran in
            List<org.hyprof.bb.emu.Threads.Info> threads = sc.threads();
            if (threads.size() > 1) {
                StringBuilder v = new StringBuilder();
                for (org.hyprof.bb.emu.Threads.Info t : threads.subList(1, threads.size()))
                    v.append(v.length() == 0 ? "" : ", ").append(t.tid()).append(": ").append(t.blocks()).append(" blocks, started by Java thread ")
                     .append(t.startedByJavaThread());
                notes.append("library.").append(i).append(".threads=").append(escape(v.toString())).append('\n');
            }
        }
        if (notes.length() > 0) info(notes);
        // native code's mapped files reach the sandbox; a temporary sandbox goes
        for (NativeLibrary lib : libraries) {
            org.hyprof.bb.emu.Syscalls sc = lib.tracer.emulator.syscalls;
            if (sc == null) continue;
            try {
                synchronized (lib) {
                    sc.flushFiles();
                }
            } catch (RuntimeException e) {
                error("could not write the mapped files of " + lib.name + " back: " + e.getMessage());
            }
        }
        org.hyprof.bb.emu.Sandbox sb;
        synchronized (this) {
            sb = sandbox;
        }
        if (sb != null && sb.isTemporary()) sb.close();
        for (NativeLibrary lib : libraries) {
            try {
                chunk(SessionFormat.NATIVE_BLOCKS, blocks(lib)::encode);
            } catch (RuntimeException e) {
                error("could not describe the blocks of " + lib.name + ": " + e.getMessage());
            }
        }
    }

    /** The blocks of {@code lib} that ran, with their executions per native method. */
    private static NativeBlocksChunk blocks(NativeLibrary lib) {
        Map<Integer, long[]> byMethod = lib.countsByMethod();
        int n = 0;
        for (long[] c : byMethod.values()) n = Math.max(n, c.length);
        List<NativeBlocksChunk.Block> blocks = new ArrayList<>();
        Tracer t = lib.tracer;
        for (int i = 0; i < n; i++) {
            int k = 0;
            for (long[] c : byMethod.values()) if (i < c.length && c[i] != 0) k++;
            if (k == 0) continue; // never executed
            int[] probeIds = new int[k];
            long[] executions = new long[k];
            k = 0;
            for (Map.Entry<Integer, long[]> e : byMethod.entrySet()) {
                long[] c = e.getValue();
                if (i < c.length && c[i] != 0) {
                    probeIds[k] = e.getKey(); // ON_LOAD (-1) for JNI_OnLoad
                    executions[k++] = c[i];
                }
            }
            Tracer.Block b = t.block(i);
            StringBuilder cats = new StringBuilder();
            b.categories().forEach((name, count) -> cats.append(cats.length() == 0 ? "" : ",").append(name).append('=').append(count));
            // a system library's blocks (userland bionic) under its own name, qualified by the app
            // library whose copy ran them (each app library has its own emulator and libc):
            // "libconscrypt_jni.so:libc.so", offsets in libc.so
            String where = b.library().equals(lib.name) ? lib.name : lib.name + ":" + b.library();
            blocks.add(new NativeBlocksChunk.Block(where, i, b.offset(), b.function(), t.emulator.counter.size(i),
                    b.instructions().size(), cats.toString(), Listing.text(b.instructions()), probeIds, executions));
        }
        return new NativeBlocksChunk(blocks);
    }

    /** A NATIVE_INFO chunk: one string of key=value lines. */
    private static void info(CharSequence lines) {
        chunk(SessionFormat.NATIVE_INFO, w -> TextChunk.encode(w, lines.toString()));
    }

    /** Hands one session chunk to the runtime; its codec writes the bytes. */
    private static void chunk(int type, java.util.function.Consumer<PayloadWriter> codec) {
        PayloadWriter w = new PayloadWriter();
        codec.accept(w);
        NativeCall.chunk(type, w.toByteArray());
    }

    private static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\n", "\\n").replace("=", "\\=").replace(":", "\\:");
    }

    // ------------------------------------------------------------------ errors

    private UnsatisfiedLinkError linkError(String message) {
        error(message);
        return new UnsatisfiedLinkError("hyprof: " + message);
    }

    private InternalError emulationError(String message) {
        error(message);
        return new InternalError("hyprof: " + message);
    }

    /** One line on stderr and an error note in the session, once per distinct message. */
    private void error(String message) {
        synchronized (sessionLock) {
            if (!reported.add(message)) return;
            System.err.println("hyprof: native: " + message);
            System.err.flush();
            info(new StringBuilder("error." + errorCount++ + "=" + escape(message) + "\n"));
        }
    }

    /** Loaded libraries (for tests and diagnostics). */
    List<NativeLibrary> libraries() {
        return libraries;
    }
}
