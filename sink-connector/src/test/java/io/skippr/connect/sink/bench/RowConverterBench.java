package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.bench.BenchRows;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.LakeRow;
import io.skippr.connect.lake.convert.LakeRowConverter;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Converts the bench rows ({@link BenchRows}) as sink records, with a schema and as schemaless
 * JSON, with key and Kafka metadata columns on; prints records/s and bytes allocated per record.
 * Run it like {@link ParquetWriteBench}, with this class as the main class and arguments {@code
 * [rows=1000000] [rounds=5]}.
 */
public final class RowConverterBench {
  private RowConverterBench() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    List<Struct> structs = BenchRows.rows(0, rows, 1);
    List<SinkRecord> withSchema = new ArrayList<>(rows);
    List<SinkRecord> schemaless = new ArrayList<>(rows);
    BenchRows.Json json = new BenchRows.Json();
    for (int i = 0; i < rows; i++) {
      Struct value = structs.get(i);
      withSchema.add(record(BenchRows.ROW, value, i));
      // Schemaless values as JsonConverter(schemas.enable=false) hands them to the task.
      schemaless.add(record(null, json.schemaless(value), i));
    }
    FormatConfig config =
        new FormatConfig(
            FormatConfig.Codec.SNAPPY,
            FormatConfig.DEFAULT_ROW_GROUP_BYTES,
            true,
            true,
            FormatConfig.NullValues.IGNORE,
            "${topic}");
    ParquetWriteBench.Measure structMeasure =
        new ParquetWriteBench.Measure("struct records", rows, rounds);
    ParquetWriteBench.Measure jsonMeasure =
        new ParquetWriteBench.Measure("schemaless records", rows, rounds);
    long[] sink = new long[1];
    for (int round = -2; round < rounds; round++) {
      structMeasure.run(round, () -> convertAll(config, withSchema, sink));
      jsonMeasure.run(round, () -> convertAll(config, schemaless, sink));
      System.out.printf(
          "%s round %d: %s; %s%n",
          round < 0 ? "warm-up" : "measured", round, structMeasure.last(), jsonMeasure.last());
    }
    System.out.println("median " + structMeasure.summary());
    System.out.println("median " + jsonMeasure.summary());
    System.out.println("(estimated bytes checksum " + sink[0] + ")");
  }

  private static void convertAll(FormatConfig config, List<SinkRecord> records, long[] sink) {
    LakeRowConverter converter = new LakeRowConverter(config);
    long bytes = 0;
    for (int i = 0, n = records.size(); i < n; i++) {
      LakeRow row = converter.convert(records.get(i));
      bytes += row.estimatedBytes();
    }
    sink[0] += bytes;
  }

  private static SinkRecord record(Schema schema, Object value, long offset) {
    return new SinkRecord(
        "orders",
        (int) (offset % 3),
        Schema.STRING_SCHEMA,
        "order-" + offset,
        schema,
        value,
        offset,
        1_767_225_600_000L + offset,
        TimestampType.CREATE_TIME);
  }
}
