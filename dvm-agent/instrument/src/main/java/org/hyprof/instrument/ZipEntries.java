package org.hyprof.instrument;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * The entries of a jar or an APK, read in one place so that every damaged zip is an input error:
 * {@link ZipFile} decodes an entry's name and comment only when the entry is listed, and throws an
 * unchecked {@link IllegalArgumentException} ("malformed input") for bytes that are not the UTF-8
 * the entry's flags promise (a fuzzed APK found it; it was an internal error).
 */
public final class ZipEntries {
    private ZipEntries() {}

    /** Every entry of {@code zip}, in its central directory's order; an entry that cannot be decoded is a {@link ZipException}. */
    public static List<ZipEntry> of(ZipFile zip) throws ZipException {
        List<ZipEntry> entries = new ArrayList<>(zip.size());
        try {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) entries.add(e.nextElement());
        } catch (IllegalArgumentException bad) {
            throw new ZipException("entry " + (entries.size() + 1) + " of the central directory: " + bad.getMessage());
        }
        return entries;
    }
}
