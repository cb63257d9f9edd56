package org.hyprof.cli;

import org.hyprof.config.MethodNames;
import picocli.CommandLine.Option;

/**
 * How methods are named in a command's output: Java signatures (the default,
 * {@code demo.HybridDemo.round(boolean)}) or JVM descriptors ({@code --descriptors},
 * {@code demo.HybridDemo.round(Z)V}). Shared by report, compare, export, tui, demo and profile.
 */
public final class NamingOptions {
    @Option(names = "--descriptors",
            description = "Name methods by their JVM descriptor (demo.HybridDemo.round(Z)V) instead of their Java signature"
                    + " (demo.HybridDemo.round(boolean)).")
    boolean descriptors;

    /** The naming style chosen. */
    MethodNames.Style style() {
        return descriptors ? MethodNames.Style.DESCRIPTOR : MethodNames.Style.JAVA;
    }
}
