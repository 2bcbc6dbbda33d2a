package io.skippr.connect.cli.audit;

/**
 * What Kafka holds of one TP.
 *
 * @param logStart the first offset Kafka still holds (records below it expired or were deleted)
 * @param end the offset after the last one written (the high watermark)
 * @param stableEnd the offset after the last one a read_committed consumer can read (the last
 *     stable offset); below {@code end} while a transaction is open
 */
record KafkaTp(long logStart, long end, long stableEnd) {}
