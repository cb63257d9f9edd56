package org.hyprof.instrument.dex;

import java.io.IOException;
import java.io.StringWriter;
import org.jf.baksmali.Adaptors.ClassDefinition;
import org.jf.baksmali.BaksmaliOptions;
import org.jf.baksmali.formatter.BaksmaliWriter;
import org.jf.dexlib2.iface.ClassDef;
import org.jf.dexlib2.iface.DexFile;

/** baksmali text of classes (in-process), as the golden files hold it. */
public final class Smali {
    private Smali() {}

    /** The class as baksmali writes it: sequential labels, with debug info, no code offsets. */
    public static String text(ClassDef cd) throws IOException {
        BaksmaliOptions o = new BaksmaliOptions();
        o.apiLevel = Fixtures.API;
        o.sequentialLabels = true;
        o.debugInfo = true;
        o.accessorComments = false;
        StringWriter w = new StringWriter();
        try (BaksmaliWriter bw = new BaksmaliWriter(w, null)) {
            new ClassDefinition(o, cd).writeTo(bw);
        }
        return w.toString();
    }

    /** The class named {@code type} ({@code Lpkg/Name;}) of a DEX file. */
    public static ClassDef find(DexFile dex, String type) {
        for (ClassDef cd : dex.getClasses()) if (cd.getType().equals(type)) return cd;
        throw new IllegalArgumentException(type + " not in the DEX file");
    }
}
