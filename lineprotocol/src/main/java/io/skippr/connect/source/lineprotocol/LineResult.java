package io.skippr.connect.source.lineprotocol;

/** What one non-blank, non-comment line parses into: a point or a rejection. */
public sealed interface LineResult permits Point, Rejection {

  /** The 1-based line number within the request body. */
  int line();
}
