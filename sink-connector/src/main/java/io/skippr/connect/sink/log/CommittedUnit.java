package io.skippr.connect.sink.log;

/** A committed compaction unit: offsets {@code [start, end]} of one TP are in the lake. */
public record CommittedUnit(String id, long start, long end, long epoch) {}
