package io.skippr.connect.source.poll.engine;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.source.poll.config.CursorConfig;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.cursor.Dedup;
import io.skippr.connect.source.poll.cursor.Position;
import io.skippr.connect.source.poll.http.Redaction;
import io.skippr.connect.source.poll.page.JsonValues;
import io.skippr.connect.source.poll.page.ParsedPage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns one page into source records: new records go to the topic with the position after them as
 * their offset; records that cannot be positioned go to the rejection topic with the reason; the
 * last record of the page carries the position of the next page (or the pass's end), so a restart
 * after it never reads this page again.
 */
public final class PageRecords {

  /** Longest record text kept in a rejection. */
  static final int MAX_REJECTED_CHARS = 64 * 1024;

  /** Longest cursor or tie-breaker: it goes into every offset after it, and into requests. */
  static final int MAX_CURSOR_CHARS = 4096;

  /** What a page yielded. */
  public record Result(
      List<SourceRecord> records, Position position, int delivered, int skipped, int rejected) {}

  private record Entry(String topic, Object key, Object value, Position position) {}

  private final EndpointSettings settings;
  private final Dedup dedup;
  private final Map<String, String> partition;
  private final JsonPointer cursorPointer;
  private final JsonPointer tiebreakPointer;
  private final JsonPointer keyPointer;

  public PageRecords(EndpointSettings settings, Dedup dedup) {
    this.settings = settings;
    this.dedup = dedup;
    this.partition = settings.sourcePartition();
    CursorConfig.Values c = settings.cursor();
    this.cursorPointer = c.hasCursor() ? JsonPointer.compile(c.pointer()) : null;
    this.tiebreakPointer = c.hasTiebreak() ? JsonPointer.compile(c.tiebreakPointer()) : null;
    String key = settings.records().keyPointer();
    this.keyPointer = key.isEmpty() ? null : JsonPointer.compile(key);
  }

  /**
   * Why a page as a whole is rejected (after its records, if it has any): its body is no page, or
   * its next page cannot be followed. {@code subject} is what the rejection shows of it.
   */
  public record PageProblem(String reason, String subject) {}

  /**
   * @param page the page
   * @param at the position it was fetched at (its page state; skip = records handled before)
   * @param next the next page's reference; empty when the pass ends with this page
   * @param pageProblem why the page is rejected as a whole, or null
   */
  public Result build(
      ParsedPage page, Position at, Optional<String> next, PageProblem pageProblem) {
    List<Judged> judged = judge(page.records());
    int lastOld = lastDeliveredBefore(judged, at);
    Position high = at;
    List<Entry> entries = new ArrayList<>();
    int skipped = 0;
    int rejected = 0;
    long knownRejects = at.page() == 0 ? at.rejects() : 0;
    for (Judged j : judged) {
      String problem = j.problem();
      if (problem == null
          && !dedup.isNew(high, at.pass(), at.skip(), j.cursor(), j.tiebreak(), j.index())) {
        skipped++;
        continue;
      }
      Object value = null;
      if (problem == null) {
        try {
          value = JsonValues.value(j.node());
        } catch (IllegalArgumentException e) {
          problem = e.getMessage();
        }
      }
      if (problem == null) {
        high = high.delivered(j.cursor(), j.tiebreak());
        knownRejects = 0;
        entries.add(
            new Entry(
                settings.records().topic(), key(j.node()), value, high.within(j.index() + 1L)));
      } else if (j.index() < at.skip() || j.index() < lastOld) {
        skipped++; // handled before: listed ahead of a record delivered earlier
      } else if (knownRejects > 0) {
        knownRejects--; // rejected in an earlier pass, listed again after the delivered cursor
        skipped++;
      } else {
        high = high.rejected();
        entries.add(
            rejection(
                page, at, j.index(), problem, j.node().toString(), high.within(j.index() + 1L)));
        rejected++;
      }
    }
    Position end = next.map(high::nextPage).orElseGet(high::done);
    if (pageProblem != null) {
      entries.add(rejection(page, at, -1, pageProblem.reason(), pageProblem.subject(), end));
      rejected++;
    }
    return new Result(records(entries, end), end, entries.size() - rejected, skipped, rejected);
  }

  /** The page's records; the last carries the position after the page. */
  private List<SourceRecord> records(List<Entry> entries, Position end) {
    List<SourceRecord> records = new ArrayList<>(entries.size());
    for (int k = 0; k < entries.size(); k++) {
      Entry e = entries.get(k);
      Position offset = k == entries.size() - 1 ? end : e.position();
      records.add(
          new SourceRecord(
              partition, offset.toOffset(), e.topic(), null, null, e.key(), null, e.value()));
    }
    return records;
  }

  /**
   * A cursor or tie-breaker as text: a string as it is, a number with its digits (a decimal in
   * exponent form as its plain digits, unless they would be more than a few dozen).
   */
  static String text(JsonNode value) {
    if (value.isBigDecimal()) {
      java.math.BigDecimal d = value.decimalValue();
      return Math.abs((long) d.scale()) <= 64 ? d.toPlainString() : d.toString();
    }
    return value.asText();
  }

  /** What a rejection shows of a body: its start, as UTF-8 text. */
  public static String text(byte[] body) {
    String text =
        new String(body, 0, Math.min(body.length, 4 * MAX_REJECTED_CHARS), StandardCharsets.UTF_8);
    return text.length() > MAX_REJECTED_CHARS ? text.substring(0, MAX_REJECTED_CHARS) : text;
  }

  /** A listed record with its cursor and tie-breaker, or the reason it has none. */
  private record Judged(int index, JsonNode node, String cursor, String tiebreak, String problem) {}

  private List<Judged> judge(List<JsonNode> nodes) {
    List<Judged> judged = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      String[] values = new String[2];
      String problem = positionValues(nodes.get(i), values);
      judged.add(new Judged(i, nodes.get(i), values[0], values[1], problem));
    }
    return judged;
  }

  /** The index of the last record delivered before this page; -1 when there is none. */
  private int lastDeliveredBefore(List<Judged> judged, Position at) {
    int last = -1;
    for (Judged j : judged) {
      if (j.problem() == null
          && !dedup.isNew(at, at.pass(), at.skip(), j.cursor(), j.tiebreak(), j.index())) {
        last = j.index();
      }
    }
    return last;
  }

  /** Fills the cursor and tie-breaker of a record; the reason when it cannot be positioned. */
  private String positionValues(JsonNode node, String[] values) {
    if (!node.isObject()) {
      return "the record is a JSON " + node.getNodeType().name().toLowerCase() + ", not an object";
    }
    if (cursorPointer != null) {
      String problem =
          scalar(node, cursorPointer, settings.cursor().pointer(), "cursor", values, 0);
      if (problem != null) {
        return problem;
      }
    }
    if (tiebreakPointer != null) {
      return scalar(
          node, tiebreakPointer, settings.cursor().tiebreakPointer(), "tie-breaker", values, 1);
    }
    return null;
  }

  private String scalar(
      JsonNode node, JsonPointer pointer, String text, String what, String[] out, int slot) {
    JsonNode value = node.at(pointer);
    if (value.isMissingNode() || value.isNull()) {
      return "no " + what + " at " + text;
    }
    if (value.isContainerNode()) {
      return "the " + what + " at " + text + " is an " + value.getNodeType().name().toLowerCase();
    }
    out[slot] = text(value);
    if (out[slot].length() > MAX_CURSOR_CHARS) {
      return "the " + what + " at " + text + " is longer than " + MAX_CURSOR_CHARS + " characters";
    }
    return dedup.order().check(out[slot]).map(reason -> what + " " + reason).orElse(null);
  }

  private Object key(JsonNode node) {
    if (keyPointer == null) {
      return null;
    }
    JsonNode key = node.at(keyPointer);
    if (key.isMissingNode()) {
      return null;
    }
    try {
      return JsonValues.value(key);
    } catch (IllegalArgumentException e) {
      return key.asText(); // a key outside 64 bits keeps its digits
    }
  }

  /** A rejection of the record at {@code index} of the page, or of the page (index -1). */
  private Entry rejection(
      ParsedPage page, Position at, int index, String reason, String text, Position offset) {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("endpoint", settings.name());
    value.put("url", Redaction.url(page.response().uri()));
    value.put("status", (long) page.response().status());
    value.put("page", at.page());
    if (index >= 0) {
      value.put("index", (long) index);
    }
    value.put("reason", reason);
    value.put(
        "record",
        text.length() > MAX_REJECTED_CHARS ? text.substring(0, MAX_REJECTED_CHARS) : text);
    return new Entry(settings.records().rejectionTopic(), null, value, offset);
  }
}
