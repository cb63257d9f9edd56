package org.hyprof.export;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link JsonOut} writes what Jackson's generator writes, compact and pretty, fragments included. */
class JsonOutTest {
    private static final String HOSTILE = "a\"b\\c\u0001\n\té€\uD83D\uDE00</script>";

    /** The same document through Jackson. */
    private static String jackson(boolean pretty) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            if (pretty) g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("name", HOSTILE);
            g.writeArrayFieldStart("empty");
            g.writeEndArray();
            g.writeObjectFieldStart("none");
            g.writeEndObject();
            g.writeArrayFieldStart("events");
            for (int i = 0; i < 3; i++) {
                g.writeStartObject();
                g.writeStringField("ph", "B");
                g.writeNumberField("pid", -42);
                g.writeFieldName("ts");
                g.writeNumber(JsonText.thousandths(1_234_567L * i));
                g.writeArrayFieldStart("nested");
                g.writeNumber(Long.MIN_VALUE);
                g.writeStartArray();
                g.writeBoolean(i == 1);
                g.writeEndArray();
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("big", Long.MAX_VALUE);
            g.writeEndObject();
        }
        return w.toString();
    }

    private static void document(JsonOut o) {
        o.beginObject();
        o.name("name").string(HOSTILE);
        o.name("empty").beginArray().endArray();
        o.name("none").beginObject().endObject();
        o.name("events").beginArray();
        // the first event by tokens, the others from fragments made after it (a leading comma is the paste's)
        JsonOut.Fragment head = null, tail = null;
        for (int i = 0; i < 3; i++) {
            if (i == 0) o.beginObject().name("ph").string("B").name("pid").number(-42).name("ts");
            else o.paste(head);
            o.thousandths(1_234_567L * i);
            if (i == 0) o.name("nested").beginArray();
            else o.paste(tail);
            o.number(Long.MIN_VALUE).beginArray().bool(i == 1).endArray().endArray().endObject();
            if (i == 0) {
                head = o.fragment(null, x -> x.beginObject().name("ph").string("B").name("pid").number(-42).name("ts"));
                tail = o.fragment(x -> x.beginObject().name("ph").string("B").name("pid").number(-42).name("ts").number(0),
                        x -> x.name("nested").beginArray());
            }
        }
        o.endArray();
        o.name("big").number(Long.MAX_VALUE);
        o.endObject();
        o.flush();
    }

    @Test
    void sameAsJacksonCompactAndPretty() throws IOException {
        for (boolean pretty : new boolean[] {false, true}) {
            StringWriter w = new StringWriter();
            document(new JsonOut(w, pretty));
            assertEquals(jackson(pretty), w.toString(), pretty ? "pretty" : "compact");
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            document(new JsonOut(bytes, pretty));
            assertEquals(jackson(pretty), bytes.toString(StandardCharsets.UTF_8), "as UTF-8 bytes");
        }
    }

    @Test
    void fragmentPastedElsewhereIsRefused() {
        JsonOut o = new JsonOut(new StringWriter(), false);
        o.beginObject().name("a").beginArray();
        JsonOut.Fragment inArray = o.fragment(null, x -> x.number(1));
        o.number(0).endArray();
        assertThrows(IllegalStateException.class, () -> o.paste(inArray));
    }

    @Test
    void longTokensPassTheBufferWhole() {
        StringWriter w = new StringWriter();
        JsonOut o = new JsonOut(w, false);
        String longName = "é".repeat(100_000);
        o.beginArray();
        for (int i = 0; i < 3; i++) o.string(longName);
        o.endArray().flush();
        assertEquals("[\"" + longName + "\",\"" + longName + "\",\"" + longName + "\"]", w.toString());
    }
}
