package io.skippr.connect.source.http;

import io.skippr.connect.source.http.config.AdmissionConfig;
import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.convert.Converted;
import io.skippr.connect.source.http.convert.JsonItems;
import io.skippr.connect.source.http.convert.PointRecords;
import io.skippr.connect.source.http.convert.RejectionRecords;
import io.skippr.connect.source.http.delivery.Admission;
import io.skippr.connect.source.http.delivery.RecordHandoff;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
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
import java.util.concurrent.TimeUnit;

/**
 * Handles one write request from body to answer: parse, convert, admit, hand the records to the
 * task, and wait until Kafka acknowledged every accepted row. Only then does the answer say
 * "accepted"; on timeout it is 503 and nothing of the request is reported accepted.
 */
public final class IngestService {

  private final LimitsConfig.Values limits;
  private final AdmissionConfig.Values admissionConfig;
  private final TopicConfig.Values topics;
  private final Admission admission;
  private final RecordHandoff handoff;
  private final PointRecords points;
  private final RejectionRecords rejections;

  /** One parser per HTTP thread, so its name cache stays warm across requests. */
  private final ThreadLocal<LineProtocolParser> parsers;

  public IngestService(
      LimitsConfig.Values limits,
      AdmissionConfig.Values admissionConfig,
      TopicConfig.Values topics,
      Admission admission,
      RecordHandoff handoff) {
    this.limits = limits;
    this.admissionConfig = admissionConfig;
    this.topics = topics;
    this.admission = admission;
    this.handoff = handoff;
    this.points = new PointRecords(topics);
    this.rejections = new RejectionRecords(topics.rejectionTopic(), limits.rows().maxLineBytes());
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
   */
  public WriteResult writeLineProtocol(
      RequestBody body,
      String endpoint,
      Precision precision,
      String database,
      boolean acceptPartial)
      throws IOException, InterruptedException {
    Instant now = Instant.now();
    long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    WriteTicket ticket = new WriteTicket();
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
              : accept((Point) result, ticket, database, data);
      if (reason != null) {
        String input = LineProtocolParser.text(buf, reader.start(), reader.end());
        rejected.add(new RejectedRow("line", result.line(), reason, input));
      }
    }
    if (!acceptPartial && !rejected.isEmpty()) {
      data.clear();
    }
    return deliver(ticket, data, rejected, body.bytesRead(), endpoint, now.toEpochMilli());
  }

  /** Writes a JSON body (array, NDJSON or {"metrics":[…]}) to the stream's topic. */
  public WriteResult writeJson(RequestBody body, String endpoint, String stream)
      throws IOException, InterruptedException {
    long nowMillis = System.currentTimeMillis();
    byte[] bytes = body.readAll();
    List<JsonItems.Item> items;
    try {
      items = JsonItems.parse(bytes, bytes.length, limits.requestMaxRows());
    } catch (JsonItems.TooManyItems e) {
      throw new RequestTooLarge(e.getMessage());
    }
    String topic = topics.fixedTopic().isEmpty() ? topics.prefix() + stream : topics.fixedTopic();
    WriteTicket ticket = new WriteTicket();
    List<TrackedRecord> data = new ArrayList<>(items.size());
    List<RejectedRow> rejected = new ArrayList<>();
    for (JsonItems.Item item : items) {
      if (item.value() != null) {
        data.add(new TrackedRecord(ticket, true, topic, null, null, item.value(), nowMillis, null));
      } else {
        rejected.add(new RejectedRow("item", item.index(), item.rejection(), item.text()));
      }
    }
    return deliver(ticket, data, rejected, bytes.length, endpoint, nowMillis);
  }

  private String accept(Point point, WriteTicket ticket, String database, List<TrackedRecord> out) {
    Converted converted = points.convert(point, ticket, database);
    if (converted.record() != null) {
      out.add(converted.record());
    }
    return converted.rejection();
  }

  private WriteResult deliver(
      WriteTicket ticket,
      List<TrackedRecord> data,
      List<RejectedRow> rejected,
      long bytes,
      String endpoint,
      long receivedMillis)
      throws InterruptedException {
    if (data.isEmpty() && rejected.isEmpty()) {
      return Responses.noContent();
    }
    List<TrackedRecord> all = new ArrayList<>(data.size() + rejected.size());
    all.addAll(data);
    for (RejectedRow row : rejected) {
      all.add(
          rejections.record(
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
      return tooManyRequests();
    }
    ticket.arm(data.size(), count, () -> admission.release(count, bytes));
    long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(admissionConfig.ackTimeoutMs());
    long deadline = System.nanoTime() + timeoutNanos;
    boolean acked =
        handoff.offer(all, ticket, deadline)
            && ticket.awaitData(
                Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    if (!acked) {
      ticket.abandon();
      return Responses.error(
          503,
          "unavailable",
          "Kafka did not acknowledge the rows within "
              + admissionConfig.ackTimeoutMs()
              + " ms; none of this request is reported as accepted, retry it");
    }
    if (rejected.isEmpty()) {
      return Responses.noContent();
    }
    String message =
        data.isEmpty() && !rejected.isEmpty()
            ? "no rows written: " + rejected.size() + " rejected"
            : "partial write: "
                + rejected.size()
                + " of "
                + (data.size() + rejected.size())
                + " rows rejected";
    return Responses.partial(data.size(), rejected, message);
  }
}
