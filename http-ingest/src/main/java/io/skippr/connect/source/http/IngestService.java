package io.skippr.connect.source.http;

import io.skippr.connect.source.http.config.AdmissionConfig;
import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.http.convert.Converted;
import io.skippr.connect.source.http.convert.JsonItems;
import io.skippr.connect.source.http.convert.PointRecords;
import io.skippr.connect.source.http.convert.RecordBound;
import io.skippr.connect.source.http.convert.RejectionRecords;
import io.skippr.connect.source.http.convert.StreamRecords;
import io.skippr.connect.source.http.delivery.Admission;
import io.skippr.connect.source.http.delivery.RecordHandoff;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.http.metrics.IngestMetrics;
import io.skippr.connect.source.http.server.RequestBody;
import io.skippr.connect.source.http.server.RequestTooLarge;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.LineReader;
import io.skippr.connect.source.lineprotocol.LineResult;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Precision;
import io.skippr.connect.source.lineprotocol.Rejection;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Handles one write request from body to answer: parse, convert, admit, hand the records to the
 * task, and answer once they are durable — acknowledged by Kafka and, when the task writes in
 * transactions, committed. Until then the answer is pending; past {@code ack.timeout.ms} it is 503
 * and nothing of the request is reported accepted. Parsing runs on the caller's thread; waiting
 * holds no thread.
 */
public final class IngestService {

  /** The converters and rejection records of the service, and the bound on every record. */
  public record Converters(
      PointRecords points, StreamRecords streams, RejectionRecords rejections, RecordBound bound) {}

  private final LimitsConfig.Values limits;
  private final AdmissionConfig.Values admissionConfig;
  private final Converters converters;
  private final Admission admission;
  private final RecordHandoff handoff;
  private final boolean transactional;
  private final IngestMetrics metrics;
  private final Set<WriteTicket> pending = ConcurrentHashMap.newKeySet();

  /** One parser per request thread, so its name cache stays warm across requests. */
  private final ThreadLocal<LineProtocolParser> parsers;

  /**
   * @param transactional whether the task writes in transactions it commits (then a request is
   *     answered after its commit, not after Kafka's acknowledgement)
   */
  public IngestService(
      LimitsConfig.Values limits,
      AdmissionConfig.Values admissionConfig,
      Converters converters,
      Admission admission,
      RecordHandoff handoff,
      boolean transactional,
      IngestMetrics metrics) {
    this.limits = limits;
    this.admissionConfig = admissionConfig;
    this.converters = converters;
    this.admission = admission;
    this.handoff = handoff;
    this.transactional = transactional;
    this.metrics = metrics;
    this.parsers = ThreadLocal.withInitial(() -> new LineProtocolParser(limits.rows()));
  }

  /** True when the in-flight limits are reached: answer 429 before reading the body. */
  public boolean saturated() {
    return admission.saturated();
  }

  /** A 429 answer. */
  public WriteResult tooManyRequests() {
    return Responses.error(
        429,
        "too many requests",
        "too many rows are waiting for Kafka ("
            + admission.inflightRows()
            + " rows, "
            + admission.inflightBytes()
            + " bytes); retry later");
  }

  /**
   * Writes a line protocol body.
   *
   * @param database the v1/v3 db or v2 bucket, or null
   * @param acceptPartial false (v3 {@code accept_partial=false}): one bad line rejects all lines
   * @throws RequestTooLarge over a request limit (413)
   */
  public CompletableFuture<WriteResult> writeLineProtocol(
      RequestBody body,
      String endpoint,
      Precision precision,
      String database,
      boolean acceptPartial)
      throws IOException {
    Instant now = Instant.now();
    long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    long receivedMillis = now.toEpochMilli();
    WriteTicket ticket = new WriteTicket(transactional);
    LineReader reader = new LineReader(body.stream(), limits.rows().maxLineBytes());
    LineProtocolParser parser = parsers.get();
    List<TrackedRecord> data = new ArrayList<>();
    List<RejectedRow> rejected = new ArrayList<>();
    int rows = 0;
    while (reader.next()) {
      byte[] buf = reader.buffer();
      LineResult result =
          parser.parseLine(
              buf, reader.start(), reader.end(), reader.lineNumber(), precision, nowNanos);
      if (result == null) {
        continue;
      }
      if (++rows > limits.requestMaxRows()) {
        throw new RequestTooLarge("more than " + limits.requestMaxRows() + " rows in one request");
      }
      String reason =
          result instanceof Rejection r
              ? r.reason()
              : accept(
                  converters.points().convert((Point) result, ticket, database, receivedMillis),
                  data);
      if (reason != null) {
        rejected.add(new RejectedRow("line", result.line(), reason, lineInput(reader)));
      }
    }
    if (!acceptPartial && !rejected.isEmpty()) {
      data.clear();
    }
    return deliver(ticket, data, rejected, body.bytesRead(), endpoint, receivedMillis);
  }

  /**
   * Writes a JSON body (array, NDJSON or {"metrics":[…]}) to the stream's topic.
   *
   * @throws RequestTooLarge over a request limit (413)
   */
  public CompletableFuture<WriteResult> writeJson(RequestBody body, String endpoint, String stream)
      throws IOException {
    long receivedMillis = System.currentTimeMillis();
    byte[] bytes = body.readAll();
    List<JsonItems.Item> items;
    try {
      items = JsonItems.parse(bytes, bytes.length, limits.requestMaxRows());
    } catch (JsonItems.TooManyItems e) {
      throw new RequestTooLarge(e.getMessage());
    }
    StreamRecords.Topic topic = converters.streams().topic(stream);
    WriteTicket ticket = new WriteTicket(transactional);
    List<TrackedRecord> data = new ArrayList<>(items.size());
    List<RejectedRow> rejected = new ArrayList<>();
    for (JsonItems.Item item : items) {
      String reason = item.rejection();
      if (reason == null) {
        reason =
            topic.topic() == null
                ? topic.rejection()
                : accept(
                    converters
                        .streams()
                        .convert(topic.topic(), stream, item.value(), ticket, receivedMillis),
                    data);
      }
      if (reason != null) {
        String input = item.text() != null ? item.text() : JsonItems.text(item.value());
        rejected.add(
            new RejectedRow(
                "item",
                item.index(),
                reason,
                RejectionRecords.keep(input, limits.rejectionInputMaxBytes())));
      }
    }
    return deliver(ticket, data, rejected, bytes.length, endpoint, receivedMillis);
  }

  /** The line's input as its rejection keeps it, decoding no more of a long line than that. */
  private RejectionRecords.Kept lineInput(LineReader reader) {
    int max = limits.rejectionInputMaxBytes();
    // A character is at most 4 bytes: decoding 4 more than kept never cuts one that is kept.
    int end = (int) Math.min(reader.end(), reader.start() + (long) max + 4);
    return RejectionRecords.keep(
        LineProtocolParser.text(reader.buffer(), reader.start(), end), max);
  }

  /** Adds the row's record, or returns why it has none (also when it would be too large). */
  private String accept(Converted converted, List<TrackedRecord> out) {
    TrackedRecord record = converted.record();
    if (record == null) {
      return converted.rejection();
    }
    OptionalLong size = converters.bound().oversize(record);
    if (size.isPresent()) {
      return "the row would be a record of "
          + size.getAsLong()
          + " bytes, more than limits.record.max.bytes ("
          + converters.bound().maxBytes()
          + "): the producer could not send it";
    }
    out.add(record);
    return null;
  }

  private CompletableFuture<WriteResult> deliver(
      WriteTicket ticket,
      List<TrackedRecord> data,
      List<RejectedRow> rejected,
      long bytes,
      String endpoint,
      long receivedMillis) {
    if (data.isEmpty() && rejected.isEmpty()) {
      return CompletableFuture.completedFuture(Responses.noContent());
    }
    List<TrackedRecord> all = new ArrayList<>(data.size() + rejected.size());
    all.addAll(data);
    for (RejectedRow row : rejected) {
      all.add(
          converters
              .rejections()
              .record(
                  ticket,
                  receivedMillis,
                  endpoint,
                  row.kind(),
                  row.position(),
                  row.reason(),
                  row.input()));
    }
    int count = all.size();
    if (!admission.tryAcquire(count, bytes)) {
      return CompletableFuture.completedFuture(tooManyRequests());
    }
    ticket.arm(count, () -> admission.release(count, bytes));
    pending.add(ticket);
    if (!handoff.offer(all, ticket)) {
      pending.remove(ticket);
      return CompletableFuture.completedFuture(unavailable("the connector is stopping"));
    }
    int accepted = data.size();
    return ticket
        .done()
        .orTimeout(admissionConfig.ackTimeoutMs(), TimeUnit.MILLISECONDS)
        .handle(
            (ok, failure) -> {
              pending.remove(ticket);
              if (failure != null) {
                ticket.abandon();
                metrics.rows(0, rejected.size());
                return unavailable(
                    failure instanceof TimeoutException
                        ? "Kafka did not acknowledge the rows within "
                            + admissionConfig.ackTimeoutMs()
                            + " ms"
                        : "the connector stopped before the rows were committed");
              }
              metrics.rows(accepted, rejected.size());
              return answer(accepted, rejected);
            });
  }

  private static WriteResult answer(int accepted, List<RejectedRow> rejected) {
    if (rejected.isEmpty()) {
      return Responses.noContent();
    }
    String message =
        accepted == 0
            ? "no rows written: " + rejected.size() + " rejected"
            : "partial write: "
                + rejected.size()
                + " of "
                + (accepted + rejected.size())
                + " rows rejected";
    return Responses.partial(accepted, rejected, message);
  }

  private static WriteResult unavailable(String why) {
    return Responses.error(
        503,
        "unavailable",
        why + "; none of this request is reported as accepted, retry it (rows may arrive twice)");
  }

  /** Answers every request still waiting with 503 (the task is stopping). */
  public void abandonAll() {
    for (WriteTicket ticket : new ArrayList<>(pending)) {
      ticket.abandon();
    }
  }

  /** Requests waiting to be answered. */
  public int pendingRequests() {
    return pending.size();
  }
}
