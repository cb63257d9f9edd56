package dexfixtures;

/** Constructors that throw before and after super(), this() calls, and an inner class. */
public final class Ctors {
    private Ctors() {}

    static class Base {
        final int x;

        Base(int x) {
            if (x < 0) throw new IllegalArgumentException("negative");
            this.x = x;
        }
    }

    static class Child extends Base {
        final int v;

        /** check() throws while computing super()'s argument: before super. */
        Child(int x) {
            super(check(x));
            if (x == 13) throw new IllegalStateException("after super");
            v = x;
        }

        Child() {
            this(1);
        }

        static int check(int x) {
            if (x > 100) throw new IllegalArgumentException("too big");
            return x;
        }
    }

    /** An inner class: javac stores the outer instance before calling super(). */
    class Inner {
        final int y;

        Inner(int y) {
            this.y = y + outerField;
        }
    }

    int outerField = 5;

    static int attempt(int x) {
        try {
            return new Child(x).v;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    static String run() {
        int r = attempt(3) + attempt(200) + attempt(-1) + attempt(13) + new Child().v;
        Ctors c = new Ctors();
        r += c.new Inner(2).y;
        return Integer.toString(r);
    }
}
