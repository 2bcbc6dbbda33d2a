package io.skippr.connect.cli.audit;

/**
 * Offsets {@code [start, end]} of a TP in no unit, and what lies on either side, for messages.
 *
 * @param generation the generation the hole is in, or begins
 * @param where where the hole lies, e.g. "in generation 2"
 */
record OffsetHole(long start, long end, long generation, String where) {}
