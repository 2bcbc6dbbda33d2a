package io.skippr.connect.source.poll.engine;

import io.skippr.connect.source.poll.auth.Authenticator;
import io.skippr.connect.source.poll.http.Backoff;
import io.skippr.connect.source.poll.page.Pagination;

/** The collaborators of one {@link EndpointPoller}. */
public record EndpointParts(
    PageFetcher fetcher,
    Pagination pagination,
    PageRecords pageRecords,
    Authenticator auth,
    Backoff backoff) {}
