package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.file.commit.CommittedOffsets;
import io.skippr.connect.source.file.commit.CompletedFiles;
import io.skippr.connect.source.file.commit.OffsetMirror;
import io.skippr.connect.source.file.commit.StoreOffsetMirror;
import io.skippr.connect.source.file.config.FileFormat;
import io.skippr.connect.source.file.config.FileSourceConfig;
import io.skippr.connect.source.file.config.FormatConfig;
import io.skippr.connect.source.file.config.TopicsConfig;
import io.skippr.connect.source.file.format.CsvRecords;
import io.skippr.connect.source.file.format.LineProtocolRecords;
import io.skippr.connect.source.file.format.NdjsonParser;
import io.skippr.connect.source.file.format.RecordParser;
import io.skippr.connect.source.file.metrics.FileSourceMetrics;
import io.skippr.connect.source.file.read.Boundary;
import io.skippr.connect.source.file.read.CsvBoundary;
import io.skippr.connect.source.file.records.FileRecords;
import io.skippr.connect.source.file.records.FileRejections;
import io.skippr.connect.source.file.scan.DirectoryScanner;
import io.skippr.connect.source.file.scan.Heads;
import io.skippr.connect.source.file.track.FileCatalog;
import io.skippr.connect.source.file.track.TaskShare;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.records.ColumnStore;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import java.time.Instant;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;

/** Builds a task's engine from its configuration and Connect context. */
public final class FileSourceParts {

  /** Least time between two reads of the committed offsets (each one reads the offsets topic). */
  static final long COMMITTED_READ_INTERVAL_MS = 1_000;

  private FileSourceParts() {}

  /**
   * @param props the task's properties (also the state store's settings)
   * @param context the task's context, or null in tests without Connect
   * @param instance orders this worker's instances of the task (their metrics' owner)
   */
  public static FileSourceEngine engine(
      FileSourceConfig.Values config,
      Map<String, String> props,
      SourceTaskContext context,
      long instance,
      LongSupplier clock) {
    FileSourceMetrics metrics = FileSourceMetrics.of(context, instance);
    OffsetMirror mirror = StoreOffsetMirror.open(props, config.mirror());
    CommittedOffsets committed = new CommittedOffsets(mirror, COMMITTED_READ_INTERVAL_MS, clock);
    boolean followed = config.directory().tail();
    TaskEvents events = new TaskEvents(metrics, committed);
    FileCatalog catalog =
        new FileCatalog(
            followed,
            new Heads(config.directory().fingerprintBytes()),
            TaskShare.of(props),
            config.directory().minAgeMs(),
            clock,
            events);
    ValueEncoder encoder = ValueEncoder.of(config.encoding());
    BatchReader reader =
        new BatchReader(
            settings(config.format(), config.topics(), encoder.encodes()),
            followed,
            new FileRecords(config.topics().topic(), encoder),
            rejections(config, encoder),
            committed,
            metrics);
    events.reader(reader);
    return new FileSourceEngine(
        new FileSourceEngine.Parts(
            new DirectoryScanner(
                config.directory().dir(),
                config.directory().matcher(),
                config.directory().recursive(),
                config.completion().dir()),
            catalog,
            reader,
            new OffsetLookup(catalog, mirror),
            committed,
            new CompletedFiles(config.completion(), config.directory().dir()),
            mirror,
            metrics,
            () -> context == null ? null : context.offsetStorageReader(),
            transactions(context),
            clock,
            new FileSourceEngine.Settings(
                followed,
                config.directory().pollIntervalMs(),
                config.directory().minAgeMs(),
                config.format().batchMaxRecords())));
  }

  private static Supplier<TransactionContext> transactions(SourceTaskContext context) {
    TransactionContext transactions = context == null ? null : context.transactionContext();
    return () -> transactions;
  }

  private static FileRejections rejections(FileSourceConfig.Values config, ValueEncoder encoder) {
    String topic = config.topics().rejectionsTopic();
    return topic == null
        ? null
        : new FileRejections(topic, config.format().format().configName(), encoder);
  }

  /**
   * @param payloads values as their JSON payload, written straight from the line, not as maps and
   *     Structs
   */
  static ReadSettings settings(
      FormatConfig.Values format, TopicsConfig.Values topics, boolean payloads) {
    FormatConfig.Csv csv = format.csv();
    Supplier<Boundary> boundaries =
        format.format() == FileFormat.CSV
            ? () -> new CsvBoundary(csv.delimiter(), csv.quote())
            : Boundary::lines;
    return new ReadSettings(boundaries, parsers(format, topics, payloads), format.maxLineBytes());
  }

  private static Supplier<RecordParser> parsers(
      FormatConfig.Values format, TopicsConfig.Values topics, boolean payloads) {
    return switch (format.format()) {
      case NDJSON -> () -> new NdjsonParser(payloads);
      case CSV -> () -> new CsvRecords(format.csv(), payloads);
      case LINEPROTOCOL -> {
        PointConverter converter =
            new PointConverter(
                new MeasurementTopics(topics.prefix(), topics.topic(), topics.rejectionsTopic()),
                ColumnStore.NONE,
                payloads ? PointConverter.ValueForm.JSON : PointConverter.ValueForm.STRUCT);
        LineLimits limits =
            new LineLimits(
                format.maxLineBytes(),
                LineLimits.DEFAULT.maxTags(),
                LineLimits.DEFAULT.maxFields(),
                LineLimits.DEFAULT.maxNameBytes(),
                LineLimits.DEFAULT.maxStringBytes());
        LineProtocolParser parser = new LineProtocolParser(limits);
        yield () ->
            new LineProtocolRecords(
                parser, converter, format.precision(), FileSourceParts::nowNanos);
      }
    };
  }

  private static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
