package io.skippr.connect.source.file.format;

import io.skippr.connect.source.file.read.Frame;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.LineResult;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Precision;
import io.skippr.connect.source.lineprotocol.Rejection;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import io.skippr.connect.source.lineprotocol.records.PointRecord;
import java.util.function.LongSupplier;

/**
 * Line protocol through the shared parser and {@link PointConverter}, so a line read from a file
 * becomes the record the HTTP ingest source makes of it (same topic, key and Struct). Blank and
 * comment lines are skipped; a line without a timestamp gets the time it is read.
 */
public final class LineProtocolRecords implements RecordParser {

  private final LineProtocolParser parser;
  private final PointConverter converter;
  private final Precision precision;
  private final LongSupplier nowNanos;

  /**
   * @param converter shared by every file of a task: a measurement's columns are learnt once
   */
  public LineProtocolRecords(
      LineProtocolParser parser,
      PointConverter converter,
      Precision precision,
      LongSupplier nowNanos) {
    this.parser = parser;
    this.converter = converter;
    this.precision = precision;
    this.nowNanos = nowNanos;
  }

  @Override
  public Parsed parse(Frame frame) {
    int line = (int) Math.min(Integer.MAX_VALUE, frame.line());
    LineResult result =
        parser.parseLine(
            frame.buf(), frame.start(), frame.end(), line, precision, nowNanos.getAsLong());
    if (result == null) {
      return null;
    }
    if (result instanceof Rejection r) {
      return Parsed.rejected(r.reason());
    }
    PointRecord r = converter.convert((Point) result, null);
    if (!r.accepted()) {
      return Parsed.rejected(r.rejection());
    }
    return new Parsed(
        r.topic(), r.key(), r.schema(), r.value(), r.timestampMillis(), r.headers(), null);
  }
}
