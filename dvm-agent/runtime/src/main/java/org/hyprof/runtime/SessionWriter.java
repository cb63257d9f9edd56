package org.hyprof.runtime;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import org.hyprof.runtime.chunk.TextChunk;

/** Writes the crash-safe session file ({@link SessionFormat}): one write call per chunk. */
final class SessionWriter extends ChunkSink {
    private final File file;
    private final FileOutputStream out;
    private IOException ioFailure;

    SessionWriter(File file, String header) throws IOException {
        this.file = file;
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs())
            throw new IOException("cannot create directory " + parent);
        this.out = new FileOutputStream(file);
        out.write(SessionFormat.MAGIC);
        TextChunk.encode(chunk.reset(), header);
        chunk.writeChunk(SessionFormat.HEADER, out);
    }

    File file() {
        return file;
    }

    IOException ioFailure() {
        return ioFailure;
    }

    @Override
    protected void emit(int type) {
        if (closed || ioFailure != null) return;
        try {
            chunk.writeChunk(type, out);
        } catch (IOException e) {
            ioFailure = e; // reported once; the app goes on
            Recorder.report("cannot write session file " + file + ": " + e.getMessage());
        }
    }

    @Override
    protected void finish() {
        try {
            out.close();
        } catch (IOException e) {
            ioFailure = e;
        }
    }
}
