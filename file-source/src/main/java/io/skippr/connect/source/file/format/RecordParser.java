package io.skippr.connect.source.file.format;

import io.skippr.connect.source.file.read.Frame;

/** Turns the records of one file into values. One instance per open file; not thread-safe. */
public interface RecordParser {

  /**
   * Parses one whole record.
   *
   * @return its value or rejection, or null for a line that holds nothing (blank, comment)
   */
  Parsed parse(Frame frame);

  /** True when the next record names the columns instead of holding data (a CSV header). */
  default boolean expectsHeader() {
    return false;
  }

  /**
   * Takes the header record.
   *
   * @return null, or why the header cannot be used (then every row of the file is rejected)
   */
  default String header(Frame frame) {
    throw new IllegalStateException("this format has no header");
  }
}
