package repro;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The reproducibility benchmark's program (issue 23 item 3; run by {@code bench/reproducibility.sh}):
 * a deterministic mix of the shapes real code has — tiny methods called millions of times (which
 * go count-only), a comparator, recursion, loops with helper calls, exceptions thrown and caught in
 * a loop, map work — each phase a static method the report lists with a deducted time of a few to
 * a few hundred milliseconds. The same work in every run (fixed seeds, fixed sizes); only the
 * machine's speed varies, so each method's deducted time should vary as little as the program's
 * own clock does.
 *
 * <p>Prints {@code repro ns=N check=C}: the whole run's wall-clock nanoseconds by its own clock,
 * and a result the JIT cannot drop (the same in every run).
 */
public final class Mix {
    /** Rounds of the whole mix when no argument says otherwise. */
    static final int DEFAULT_ROUNDS = 3;

    private Mix() {}

    /** {@code args[0]}: how many rounds of the mix (default {@value #DEFAULT_ROUNDS}); a longer run spreads the JIT's warm-up over more work. */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS;
        if (rounds < 1) throw new IllegalArgumentException("rounds must be at least 1, not " + rounds);
        long check = 0;
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            check += tokenize(text(200_000, 11 + r));
            check += sortRecords(60_000, 17 + r);
            check += fib(24);
            check += matrix(90, 23 + r);
            check += strings(40_000);
            check += parseAll(30_000, 29 + r);
            check += mapWork(150_000, 31 + r);
        }
        long ns = System.nanoTime() - t0;
        System.out.println("repro ns=" + ns + " check=" + check);
    }

    static String text(int n, long seed) {
        Random rnd = new Random(seed);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(10);
            sb.append(k < 4 ? (char) ('a' + rnd.nextInt(26)) : k < 7 ? (char) ('0' + rnd.nextInt(10)) : ' ');
        }
        return sb.toString();
    }

    /** Counts words and numbers through two tiny classifiers called once per character. */
    static long tokenize(String s) {
        long words = 0, numbers = 0;
        int i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (isLetter(c)) {
                while (i < n && isLetter(s.charAt(i))) i++;
                words++;
            } else if (isDigit(c)) {
                while (i < n && isDigit(s.charAt(i))) i++;
                numbers++;
            } else {
                i++;
            }
        }
        return words * 31 + numbers;
    }

    static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z';
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static final class Rec {
        final int key;
        final String name;

        Rec(int key, String name) {
            this.key = key;
            this.name = name;
        }
    }

    static int compareRecs(Rec a, Rec b) {
        int c = Integer.compare(a.key, b.key);
        return c != 0 ? c : a.name.compareTo(b.name);
    }

    static long sortRecords(int n, long seed) {
        Random rnd = new Random(seed);
        List<Rec> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) list.add(new Rec(rnd.nextInt(n / 4), "r" + rnd.nextInt(1000)));
        list.sort(new Comparator<Rec>() {
            @Override
            public int compare(Rec a, Rec b) {
                return compareRecs(a, b);
            }
        });
        return list.get(n / 2).key;
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static double at(double[] m, int n, int i, int j) {
        return m[i * n + j];
    }

    static long matrix(int n, long seed) {
        Random rnd = new Random(seed);
        double[] a = new double[n * n], b = new double[n * n], c = new double[n * n];
        for (int i = 0; i < n * n; i++) {
            a[i] = rnd.nextDouble();
            b[i] = rnd.nextDouble();
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += at(a, n, i, k) * at(b, n, k, j);
                c[i * n + j] = s;
            }
        }
        return (long) (Arrays.stream(c).sum());
    }

    static long strings(int n) {
        StringBuilder sb = new StringBuilder();
        long len = 0;
        for (int i = 0; i < n; i++) {
            sb.setLength(0);
            sb.append("item-").append(i).append(':').append(i * 7 % 13);
            len += sb.toString().hashCode() & 15;
        }
        return len;
    }

    /** One input in eight is not a number: the exception is thrown inside the loop and caught there. */
    static long parseAll(int n, long seed) {
        Random rnd = new Random(seed);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            String s = rnd.nextInt(8) == 0 ? "x" + i : Integer.toString(rnd.nextInt(100_000));
            try {
                sum += parse(s);
            } catch (NumberFormatException e) {
                sum -= 1;
            }
        }
        return sum;
    }

    static int parse(String s) {
        return Integer.parseInt(s);
    }

    static long mapWork(int n, long seed) {
        Random rnd = new Random(seed);
        Map<Integer, Integer> m = new HashMap<>();
        for (int i = 0; i < n; i++) m.merge(rnd.nextInt(n / 8), 1, Integer::sum);
        long s = 0;
        for (int i = 0; i < n / 8; i++) s += m.getOrDefault(i, 0);
        return s + m.size();
    }
}
