package org.hyprof.store;

/**
 * An event chunk whose record bytes no longer match the CRC-32 stored with them: left out of call
 * trees and exports, and named by reports and exports. {@code bytes} is its size as stored now.
 */
public record DamagedChunk(long processId, long tid, long seq, int bytes) {}
