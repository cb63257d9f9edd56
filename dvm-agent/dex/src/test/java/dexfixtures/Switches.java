package dexfixtures;

/** Packed and sparse switches, a switch with continue inside a loop, a string switch. */
public final class Switches {
    private Switches() {}

    static int loopIters;

    static int packed(int x) {
        switch (x) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            default: return -1;
        }
    }

    static int sparse(int x) {
        switch (x) {
            case -5: return 4;
            case 1: return 1;
            case 100: return 2;
            case 10000: return 3;
            default: return 0;
        }
    }

    static int inLoop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++, loopIters++) {
            switch (i % 4) {
                case 0: s += 1; break;
                case 1: s += 2; continue;
                case 2: s += 3; break;
                default: s += 4;
            }
            s++;
        }
        return s;
    }

    static int strings(String s) {
        switch (s) {
            case "a": return 1;
            case "bb": return 2;
            default: return 0;
        }
    }

    static String run() {
        int r = 0;
        for (int x = -1; x < 5; x++) r += packed(x);
        r += sparse(-5) + sparse(100) + sparse(7) + sparse(10000);
        r += inLoop(11) + strings("a") + strings("bb") + strings("c");
        return r + " loopIters=" + loopIters;
    }
}
