package org.hyprof.control;

import org.hyprof.runtime.Wire;
import org.hyprof.runtime.chunk.PayloadReader;
import org.hyprof.runtime.chunk.PayloadWriter;

/**
 * The collector accepted a connection; {@code processId} is the agent's process in the session
 * (0 for ctl). {@code resume} is the agent's resume secret: it presents it in the {@link Hello} of
 * every reconnection to be given its process row back (empty for ctl). The field is last and
 * optional on decoding (absent from an older collector: empty).
 */
public record Welcome(long processId, String message, String resume) implements Frame {
    /** A WELCOME without a resume secret (ctl). */
    public Welcome(long processId, String message) {
        this(processId, message, "");
    }

    @Override public int type() { return Wire.WELCOME; }

    @Override
    public byte[] payload() {
        return new PayloadWriter().varint(processId).string(message).string(resume).toByteArray();
    }

    static Welcome decode(PayloadReader d) {
        long id = d.varint();
        String message = d.string();
        return new Welcome(id, message, d.atEnd() ? "" : d.string());
    }
}
