package org.hyprof.instrument.dex;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Builds APK-shaped fixtures: a binary {@code AndroidManifest.xml} (Android's compiled XML,
 * written here because aapt needs an android.jar that Debian does not ship; apksigner parsing it
 * in the tests is the check that it is right), DEX files and other entries, and the v1
 * signature files of an already-signed APK, which instrumenting must drop.
 */
public final class TestApk {
    private TestApk() {}

    /** Entry name → bytes; entries whose name ends in {@code .so} or starts with {@code res/raw/} are stored. */
    public static void write(Path apk, Map<String, byte[]> entries) throws IOException {
        try (OutputStream fo = Files.newOutputStream(apk); ZipOutputStream z = new ZipOutputStream(fo)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                ZipEntry ze = new ZipEntry(e.getKey());
                if (e.getKey().endsWith(".so") || e.getKey().startsWith("res/raw/") || e.getKey().equals("resources.arsc")) {
                    ze.setMethod(ZipEntry.STORED);
                    ze.setSize(e.getValue().length);
                    ze.setCompressedSize(e.getValue().length);
                    CRC32 crc = new CRC32();
                    crc.update(e.getValue());
                    ze.setCrc(crc.getValue());
                }
                ze.setTime(1_600_000_000_000L);
                z.putNextEntry(ze);
                z.write(e.getValue());
                z.closeEntry();
            }
        }
    }

    /** A typical APK around the given DEX files (classes.dex, classes2.dex, ...). */
    public static Map<String, byte[]> entries(String pkg, int minSdk, byte[]... dex) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("AndroidManifest.xml", manifest(pkg, minSdk));
        for (int i = 0; i < dex.length; i++) m.put(i == 0 ? "classes.dex" : "classes" + (i + 1) + ".dex", dex[i]);
        m.put("resources.arsc", new byte[] {2, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7});
        m.put("res/raw/greeting.txt", "hello from an APK resource\n".getBytes());
        m.put("lib/x86_64/libfixture.so", new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0});
        m.put("assets/data.bin", new byte[] {1, 2, 3, 4, 5});
        m.put("META-INF/MANIFEST.MF", ("Manifest-Version: 1.0\r\nCreated-By: fixture\r\n\r\n"
                + "Name: classes.dex\r\nSHA-256-Digest: AAAA\r\n\r\n").getBytes());
        m.put("META-INF/CERT.SF", "Signature-Version: 1.0\r\n\r\n".getBytes());
        m.put("META-INF/CERT.RSA", new byte[] {0x30, (byte) 0x82, 0, 0});
        return m;
    }

    /** A binary AndroidManifest.xml: {@code <manifest package=P><uses-sdk android:minSdkVersion=N/><application/></manifest>}. */
    public static byte[] manifest(String pkg, int minSdk) {
        List<String> strings = List.of("minSdkVersion", "android", "http://schemas.android.com/apk/res/android",
                "manifest", "package", pkg, "uses-sdk", "application");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        write(body, stringPool(strings));
        write(body, chunk(0x0180, 8, le(0x0101020c)));                                // resource map: string 0
        write(body, node(0x0100, le(1, 2)));                                          // xmlns:android
        write(body, element(3, new int[][] {{-1, 4, 5, 0x03, 5}}));                    // <manifest package=...>
        write(body, element(6, new int[][] {{2, 0, -1, 0x10, minSdk}}));               // <uses-sdk minSdkVersion=N>
        write(body, node(0x0103, le(-1, 6)));
        write(body, element(7, new int[0][]));                                         // <application>
        write(body, node(0x0103, le(-1, 7)));
        write(body, node(0x0103, le(-1, 3)));
        write(body, node(0x0101, le(1, 2)));
        return chunk(0x0003, 8, body.toByteArray());
    }

    /** Start element: name index and attributes {ns, name, raw string, data type, data}. */
    private static byte[] element(int name, int[][] attrs) {
        ByteBuffer b = ByteBuffer.allocate(8 + 20 + 20 * attrs.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(1).putInt(-1);                                   // line, comment
        b.putInt(-1).putInt(name).putShort((short) 20).putShort((short) 20).putShort((short) attrs.length)
                .putShort((short) 0).putShort((short) 0).putShort((short) 0);
        for (int[] a : attrs) {
            b.putInt(a[0]).putInt(a[1]).putInt(a[2]).putShort((short) 8).put((byte) 0).put((byte) a[3]).putInt(a[4]);
        }
        return chunk(0x0102, 16, b.array());
    }

    /** A node chunk (namespace or end element): line, comment, then the payload. */
    private static byte[] node(int type, byte[] payload) {
        byte[] b = new byte[8 + payload.length];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(1).putInt(-1).put(payload);
        return chunk(type, 16, b);
    }

    private static byte[] stringPool(List<String> strings) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        for (String s : strings) {
            offsets.add(data.size());
            write(data, le16(s.length()));
            for (char ch : s.toCharArray()) write(data, le16(ch));
            write(data, le16(0));
        }
        while (data.size() % 4 != 0) data.write(0);
        ByteBuffer h = ByteBuffer.allocate(20 + 4 * strings.size()).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(strings.size()).putInt(0).putInt(0).putInt(28 + 4 * strings.size()).putInt(0);
        for (int o : offsets) h.putInt(o);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        write(all, h.array());
        write(all, data.toByteArray());
        return chunk(0x0001, 28, all.toByteArray());
    }

    /** A chunk: type, header size (counting the 8-byte common header), total size, then the rest. */
    private static byte[] chunk(int type, int headerSize, byte[] rest) {
        ByteBuffer b = ByteBuffer.allocate(8 + rest.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) type).putShort((short) headerSize).putInt(8 + rest.length).put(rest);
        return b.array();
    }

    private static byte[] le(int... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) b.putInt(x);
        return b.array();
    }

    private static byte[] le16(int v) {
        return new byte[] {(byte) v, (byte) (v >> 8)};
    }

    private static void write(ByteArrayOutputStream o, byte[] b) {
        o.write(b, 0, b.length);
    }
}
