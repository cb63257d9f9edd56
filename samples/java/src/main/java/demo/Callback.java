package demo;

/** Called back from native code (Java → native → Java). */
public interface Callback {
    int value(int k);
}
