package org.hyprof.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** HOST:PORT arguments. */
final class HostPort {
    private HostPort() {}

    static String[] parse(String v, String option) {
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) throw new UserError(option + ": expected HOST:PORT, not '" + v + "'", 2);
        String host = v.substring(0, colon);
        try {
            int port = Integer.parseInt(v.substring(colon + 1));
            if (port < 0 || port > 65535) throw new NumberFormatException();
        } catch (NumberFormatException e) {
            throw new UserError(option + ": bad port in '" + v + "'", 2);
        }
        return new String[] {host, v.substring(colon + 1)};
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
