package io.skippr.connect.lake.format;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/** Feeds Connect structs straight into Parquet's record consumer: no intermediate records. */
final class StructWriteSupport extends WriteSupport<Struct> {
  static final String MODEL_NAME = "skippr-connect";

  private final MessageType messageType;
  private final StructWriter root;
  private RecordConsumer consumer;

  StructWriteSupport(Schema fileSchema, MessageType messageType) {
    this.messageType = messageType;
    this.root = new StructWriter(fileSchema, "");
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(messageType, Map.of());
  }

  @Override
  public WriteContext init(ParquetConfiguration configuration) {
    return new WriteContext(messageType, Map.of());
  }

  @Override
  public String getName() {
    return MODEL_NAME;
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(Struct row) {
    consumer.startMessage();
    root.writeFields(consumer, row);
    consumer.endMessage();
  }
}
