package demo;

/** k² + 1: the callback native code calls in the demo. */
public final class Square implements Callback {
    @Override
    public int value(int k) {
        return k * k + 1;
    }
}
