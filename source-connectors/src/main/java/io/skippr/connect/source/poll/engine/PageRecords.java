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
   * @param page the page
   * @param at the position it was fetched at (its page state; skip = records handled before)
   * @param next the next page's reference; empty when the pass ends with this page
   */
  public Result build(ParsedPage page, Position at, Optional<String> next) {
    Position high = at;
    List<Entry> entries = new ArrayList<>();
    int skipped = 0;
    int rejected = 0;
    List<JsonNode> nodes = page.records();
    for (int i = 0; i < nodes.size(); i++) {
      JsonNode node = nodes.get(i);
      String[] values = new String[2];
      String problem = positionValues(node, values);
      if (problem == null && !dedup.isNew(high, at.pass(), at.skip(), values[0], values[1], i)) {
        skipped++;
        continue;
      }
      Object value = null;
      if (problem == null) {
        try {
          value = JsonValues.value(node);
        } catch (IllegalArgumentException e) {
          problem = e.getMessage();
        }
      }
      if (problem != null) {
        if (i >= at.skip()) { // one rejected before a restart is not rejected again
          entries.add(rejection(page, i, node, problem, high.within(i + 1L)));
          rejected++;
        }
        continue;
      }
      high = high.delivered(values[0], values[1]);
      entries.add(new Entry(settings.records().topic(), key(node), value, high.within(i + 1L)));
    }
    Position end = next.map(high::nextPage).orElseGet(high::done);
    List<SourceRecord> records = new ArrayList<>(entries.size());
    for (int j = 0; j < entries.size(); j++) {
      Entry e = entries.get(j);
      Position offset = j == entries.size() - 1 ? end : e.position();
      records.add(
          new SourceRecord(
              partition, offset.toOffset(), e.topic(), null, null, e.key(), null, e.value()));
    }
    return new Result(records, end, entries.size() - rejected, skipped, rejected);
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
    out[slot] = value.asText();
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

  private Entry rejection(ParsedPage page, int index, JsonNode node, String reason, Position at) {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("endpoint", settings.name());
    value.put("url", Redaction.url(page.response().uri()));
    value.put("status", (long) page.response().status());
    value.put("index", (long) index);
    value.put("reason", reason);
    String text = node.toString();
    value.put(
        "record",
        text.length() > MAX_REJECTED_CHARS ? text.substring(0, MAX_REJECTED_CHARS) : text);
    return new Entry(settings.records().rejectionTopic(), null, value, at);
  }
}
