package workload;

/**
 * Two "builds" of one program for the cross-session query (ParquetIT): {@code B} makes
 * {@link #kernel} do 40 times the work of {@code A}; {@link #steady} is the same in both. Every
 * method is called the same number of times in both builds.
 */
public final class TwoBuilds {
    private TwoBuilds() {}

    public static void main(String[] args) {
        int factor = args.length > 0 && args[0].equals("B") ? 40 : 1;
        long sum = 0;
        for (int i = 0; i < 100; i++) {
            sum += kernel(factor);
            sum += steady();
        }
        System.out.println(sum);
    }

    static long kernel(int factor) {
        long s = 1;
        for (int i = 0; i < 20_000 * factor; i++) s += i ^ (s >>> 3);
        return s;
    }

    static long steady() {
        long s = 1;
        for (int i = 0; i < 20_000; i++) s += i ^ (s >>> 5);
        return s;
    }
}
