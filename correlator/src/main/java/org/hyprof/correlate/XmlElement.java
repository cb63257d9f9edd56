package org.hyprof.correlate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One element of a small XML tree: what {@link PowerProfile} reads, built the same way from a
 * text file (DOM) and from Android's compiled binary XML ({@link BinaryXml}), so both forms go
 * through one interpretation. Text is the concatenation of the element's own character data.
 */
final class XmlElement {
    final String tag;
    final Map<String, String> attributes = new LinkedHashMap<>();
    final List<XmlElement> children = new ArrayList<>();
    final StringBuilder text = new StringBuilder();

    XmlElement(String tag) {
        this.tag = tag;
    }

    String attribute(String name) {
        String v = attributes.get(name);
        return v == null ? "" : v;
    }
}
