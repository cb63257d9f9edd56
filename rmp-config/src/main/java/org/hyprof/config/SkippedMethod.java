package org.hyprof.config;

/** A method the instrumenter left unchanged, with the reason (listed in the manifest and CLI). */
public record SkippedMethod(String className, String methodName, String descriptor, String reason) {
    public String methodKey() {
        return className + "." + methodName + descriptor;
    }
}
