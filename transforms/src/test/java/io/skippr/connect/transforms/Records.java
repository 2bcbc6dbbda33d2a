package io.skippr.connect.transforms;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

/** Test records and values. */
final class Records {
  private Records() {}

  static SinkRecord value(String topic, Object value) {
    return value(topic, null, value);
  }

  static SinkRecord value(String topic, Schema schema, Object value) {
    ConnectHeaders headers = new ConnectHeaders();
    headers.addString("trace", "t-1");
    return new SinkRecord(topic, 2, null, "k", schema, value, 17L, 1234L, null, headers);
  }

  /** A mutable map of alternating keys and values, in order. */
  static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
