package org.hyprof.instrument.dex;

/**
 * A method that cannot be rewritten safely: it is left unchanged and listed in the manifest with
 * this reason. Thrown before anything of the method is emitted, so a skipped method is copied as
 * it was.
 */
final class Skip extends Exception {
    private static final long serialVersionUID = 1L;

    Skip(String reason) {
        super(reason, null, false, false);
    }
}
