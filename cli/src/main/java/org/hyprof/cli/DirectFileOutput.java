package org.hyprof.cli;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A file written past the page cache ({@code O_DIRECT}) where the file system allows it, for the
 * exports that write gigabytes (a 10⁸-event chrome trace is 7.7 GB). Why: a buffered write copies
 * every byte into the page cache, and once the dirty pages pass the kernel's limit the writer is
 * made to flush them itself — measured here, writing 7.7 GB cost 10.6 s of system CPU through the
 * cache and a tenth of that per byte with {@code O_DIRECT}. The file we write is not read back by
 * us, so keeping it in the cache buys nothing, and it no longer evicts what the user had cached.
 *
 * <p>Direct I/O wants the buffer, the file position and every write's length aligned to the
 * file system's block: bytes are gathered in an aligned buffer of whole blocks, the last partial
 * block is written padded with zeros and the file then cut to its real length. Where direct I/O
 * is refused (tmpfs, a device, a pipe, a file system without it: at open or at the first write),
 * the same buffer is written through the page cache: the bytes are the same either way.
 */
final class DirectFileOutput extends OutputStream {
    /** Bytes gathered per write: large, so the device sees few and long writes. */
    static final int BUFFER_BYTES = 1 << 20;

    private final Path file;
    private final int blockBytes;
    /** Written by the writer thread, one write at a time (see {@link #drain}); closed and cut after {@link #awaitPending}. */
    private FileChannel channel;
    private volatile boolean direct;
    private long writtenBytes;
    /** The buffer being filled, and the one the writer may still be writing. */
    private ByteBuffer filling, spare;
    private ExecutorService writer;
    private Future<?> pending;
    private boolean closed;

    private DirectFileOutput(Path file, FileChannel channel, boolean direct, int blockBytes) {
        this.file = file;
        this.channel = channel;
        this.direct = direct;
        this.blockBytes = blockBytes;
        this.filling = aligned(blockBytes);
    }

    private static ByteBuffer aligned(int blockBytes) {
        int size = (BUFFER_BYTES + blockBytes - 1) / blockBytes * blockBytes;
        return ByteBuffer.allocateDirect(size + blockBytes).alignedSlice(blockBytes).limit(size);
    }

    /** Creates (or empties) {@code file} for writing, past the page cache when its file system allows it. */
    static DirectFileOutput create(Path file) throws IOException {
        return create(file, true);
    }

    /** As {@link #create(Path)}; {@code tryDirect} false: through the page cache (what a refusal falls back to). */
    static DirectFileOutput create(Path file, boolean tryDirect) throws IOException {
        if (tryDirect && (Files.isRegularFile(file) || !Files.exists(file))) {
            int block = blockBytes(file);
            if (block > 0) {
                try {
                    return new DirectFileOutput(file, FileChannel.open(file, options(true)), true, block);
                } catch (IOException | UnsupportedOperationException e) {
                    // refused (EINVAL on tmpfs and others): through the page cache below
                }
            }
        }
        return new DirectFileOutput(file, FileChannel.open(file, options(false)), false, 4096);
    }

    /** Whether the bytes go past the page cache (for tests and the bench). */
    boolean isDirect() {
        return direct;
    }

    private static OpenOption[] options(boolean direct) {
        return direct
                ? new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, ExtendedOpenOption.DIRECT}
                : new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING};
    }

    /** The file system's block (what direct I/O aligns to), or 0 when it does not say or says something odd. */
    private static int blockBytes(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            long b = Files.getFileStore(dir == null ? file : dir).getBlockSize();
            return b >= 512 && b <= 1 << 16 && Long.bitCount(b) == 1 ? (int) b : 0;
        } catch (IOException | UnsupportedOperationException e) {
            return 0;
        }
    }

    @Override
    public void write(int b) throws IOException {
        if (closed) throw new IOException(file + ": closed");
        if (!filling.hasRemaining()) drain();
        filling.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) throw new IOException(file + ": closed");
        while (len > 0) {
            if (!filling.hasRemaining()) drain();
            int n = Math.min(len, filling.remaining());
            filling.put(b, off, n);
            off += n;
            len -= n;
        }
    }

    /**
     * Hands the filled buffer (whole blocks) to the writer thread and goes on filling the other:
     * with direct I/O a write waits for the device, and the export need not wait with it. One
     * write at a time, in order.
     */
    private void drain() throws IOException {
        awaitPending();
        ByteBuffer full = filling.flip();
        if (writer == null) {
            writer = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "hyprof-file-writer");
                t.setDaemon(true);
                return t;
            });
        }
        pending = writer.submit(() -> {
            writeAll(full);
            return null;
        });
        filling = spare != null ? spare : aligned(blockBytes);
        filling.clear();
        spare = full;
    }

    /** Waits for the write in flight; its failure is this stream's. */
    private void awaitPending() throws IOException {
        if (pending == null) return;
        Future<?> p = pending;
        pending = null;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    p.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the write is under way: its outcome decides
                }
            }
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) throw io;
            if (c instanceof RuntimeException r) throw r;
            throw new IOException(c);
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** On the writer thread. */
    private void writeAll(ByteBuffer b) throws IOException {
        int n = b.remaining();
        try {
            while (b.hasRemaining()) channel.write(b);
        } catch (IOException e) {
            if (!direct || writtenBytes > 0) throw e;
            // accepted at open, refused at the first write (some file systems): through the cache instead
            channel.close();
            channel = FileChannel.open(file, options(false));
            direct = false;
            b.rewind();
            while (b.hasRemaining()) channel.write(b);
        }
        writtenBytes += n;
    }

    /** Nothing to do: bytes are written in whole blocks, the rest at {@link #close}. */
    @Override
    public void flush() {}

    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            awaitPending(); // a first write may have fallen back to the cache: no padding then
            int tail = filling.position();
            if (tail > 0) {
                // direct I/O writes whole blocks: the last one padded with zeros, then the file cut to its length
                int padded = direct ? (tail + blockBytes - 1) / blockBytes * blockBytes : tail;
                while (filling.position() < padded) filling.put((byte) 0);
                drain();
                awaitPending();
                if (padded > tail) channel.truncate(writtenBytes - padded + tail);
            }
        } finally {
            if (writer != null) writer.shutdown();
            channel.close(); // the channel written last (a fallback replaces the first)
        }
    }
}
