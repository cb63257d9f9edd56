package org.hyprof.store;

/** A thread that recorded; drops are events lost to the budget and frames lost to stack depth. */
public record ThreadInfo(long tid, String name, long eventDrops, long depthDrops) {}
