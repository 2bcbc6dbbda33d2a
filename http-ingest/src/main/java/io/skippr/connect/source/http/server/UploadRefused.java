package io.skippr.connect.source.http.server;

/**
 * Why an upload stopped before its end: the status to answer (408 too slow, 413 too large, 503 no
 * memory or stopping, 400 broken) and a message for the client. The connection is closed after the
 * answer, since the rest of the body is not read.
 */
public record UploadRefused(int status, String message) {}
