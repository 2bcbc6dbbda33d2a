package io.skippr.connect.lake.partition;

import io.skippr.connect.lake.convert.RecordRejectedException;
import io.skippr.connect.lake.storage.PathEncoder;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One {@code name=value} directory per configured field, in configured order. Values render as
 * text: numbers and booleans as Java prints them, decimals in plain notation, Timestamp as an
 * ISO-8601 instant, Date as {@code yyyy-MM-dd}, Time as {@code HH:mm:ss[.SSS]}.
 */
final class FieldPartitioner implements Partitioner {
  private final List<String> fieldNames;
  private final List<String> encodedNames;

  FieldPartitioner(List<String> fieldNames) {
    this.fieldNames = List.copyOf(fieldNames);
    this.encodedNames = fieldNames.stream().map(PathEncoder::encodeName).toList();
  }

  @Override
  public String partitionPath(SinkRecord record, Struct row, long unitWallclockMs) {
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < fieldNames.size(); i++) {
      String name = fieldNames.get(i);
      RowFields.Found found = RowFields.find(row, name, "partition field");
      String value = render(name, found.schema(), found.value());
      if (i > 0) {
        path.append('/');
      }
      String encodedName = encodedNames.get(i);
      path.append(encodedName)
          .append('=')
          .append(
              PathEncoder.encode(value, PathEncoder.MAX_SEGMENT_BYTES - encodedName.length() - 1));
    }
    return path.toString();
  }

  static String render(String name, Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof java.util.Date date) {
      String logical = schema.name();
      if (Date.LOGICAL_NAME.equals(logical)) {
        return LocalDate.ofInstant(date.toInstant(), ZoneOffset.UTC).toString();
      }
      if (Time.LOGICAL_NAME.equals(logical)) {
        return LocalTime.ofNanoOfDay(date.getTime() * 1_000_000L).toString();
      }
      return Instant.ofEpochMilli(date.getTime()).toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    throw new RecordRejectedException(
        "partition field '"
            + name
            + "' has type "
            + schema.type().getName()
            + "; only primitive values can name a directory");
  }
}
