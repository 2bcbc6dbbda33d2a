package io.skippr.connect.source.http;

/**
 * The answer to a write request.
 *
 * @param status HTTP status: 204, 400, 401, 413, 429 or 503
 * @param body JSON body, or null for none
 * @param retryAfter whether to send Retry-After (429, 503)
 */
public record WriteResult(int status, String body, boolean retryAfter) {}
