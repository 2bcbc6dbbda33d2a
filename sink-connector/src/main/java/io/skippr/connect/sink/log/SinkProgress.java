package io.skippr.connect.sink.log;

/**
 * Progress of one TP after a commit: offsets up to {@code endOffset} are in the lake.
 *
 * @param compactionId the committed unit
 * @param epoch the epoch of the writer that committed it
 * @param logSeq the sequence number of the commit entry
 */
public record SinkProgress(
    String topic, int partition, long endOffset, String compactionId, long epoch, long logSeq) {}
