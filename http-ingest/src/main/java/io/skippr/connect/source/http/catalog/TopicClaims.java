package io.skippr.connect.source.http.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.source.common.TopicNames;
import io.skippr.connect.source.lineprotocol.records.TopicGate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Which name owns which topic. The first row of a name claims its topic in the catalog ({@code
 * topic/{topic with '.' as '_'}}, so two topics Kafka would see as colliding can never both be
 * claimed); later rows of the same name find the claim, also after a restart and in other tasks.
 * Claiming counts against {@code limits.topics.max} (a {@code topics} counter row) and needs the
 * topic to match {@code topic.allow.regex}; a row that cannot claim its topic is rejected with the
 * reason.
 */
public final class TopicClaims {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COUNTER = "topics";

  /** What a claim row holds. */
  private record Claim(String topic, NameKind kind, String name) {}

  private final CatalogRows rows;
  private final int maxTopics;
  private final Optional<Pattern> allowed;
  private final Map<String, Claim> byTopic = new ConcurrentHashMap<>();

  /**
   * @param maxTopics most topics the connector's names may claim
   * @param allowed when present, a topic must match it as a whole
   */
  TopicClaims(CatalogRows rows, int maxTopics, Optional<Pattern> allowed) {
    this.rows = rows;
    this.maxTopics = maxTopics;
    this.allowed = allowed;
  }

  /** The gate for names of one kind. */
  public TopicGate gate(NameKind kind) {
    return (name, topic) -> admit(kind, name, topic);
  }

  /**
   * @return null when the name owns (or now claimed) the topic, else why it cannot have it
   * @throws CatalogException when the catalog cannot be read or written
   */
  public String admit(NameKind kind, String name, String topic) {
    Claim known = byTopic.get(topic);
    if (known != null) {
      return owns(known, kind, name) ? null : taken(known, kind, name);
    }
    return claim(kind, name, topic);
  }

  private synchronized String claim(NameKind kind, String name, String topic) {
    if (allowed.isPresent() && !allowed.get().matcher(topic).matches()) {
      return kind.label()
          + " '"
          + name
          + "' maps to topic '"
          + topic
          + "', which topic.allow.regex does not allow";
    }
    String id = "topic/" + TopicNames.collisionForm(topic);
    Claim wanted = new Claim(topic, kind, name);
    while (true) {
      CatalogRows.Row row = rows.get(id);
      if (row.exists()) {
        Claim existing = decode(row.value());
        byTopic.put(existing.topic(), existing);
        return owns(existing, kind, name) && existing.topic().equals(topic)
            ? null
            : taken(existing, kind, name);
      }
      if (!reserveSlot()) {
        return kind.label()
            + " '"
            + name
            + "' would be topic number "
            + (maxTopics + 1)
            + " of this connector; limits.topics.max is "
            + maxTopics;
      }
      if (rows.compareAndSet(id, 0, encode(wanted))) {
        byTopic.put(topic, wanted);
        return null;
      }
      releaseSlot(); // another task claimed it first: read its claim
    }
  }

  private static boolean owns(Claim claim, NameKind kind, String name) {
    return claim.kind() == kind && claim.name().equals(name);
  }

  private static String taken(Claim owner, NameKind kind, String name) {
    return kind.label()
        + " '"
        + name
        + "' cannot use its topic: "
        + owner.kind().label()
        + " '"
        + owner.name()
        + "' already writes to '"
        + owner.topic()
        + "' (Kafka treats '.' and '_' in topic names alike)";
  }

  private boolean reserveSlot() {
    while (true) {
      CatalogRows.Row row = rows.get(COUNTER);
      long count = row.exists() ? count(row) : 0;
      if (count >= maxTopics) {
        return false;
      }
      if (rows.compareAndSet(COUNTER, row.version(), counter(count + 1))) {
        return true;
      }
    }
  }

  private void releaseSlot() {
    while (true) {
      CatalogRows.Row row = rows.get(COUNTER);
      long count = count(row);
      if (rows.compareAndSet(COUNTER, row.version(), counter(Math.max(0, count - 1)))) {
        return;
      }
    }
  }

  private static long count(CatalogRows.Row row) {
    return read(row.value()).path("count").asLong();
  }

  private static byte[] counter(long count) {
    return JSON.createObjectNode().put("count", count).toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] encode(Claim claim) {
    ObjectNode node = JSON.createObjectNode();
    node.put("topic", claim.topic()).put("kind", claim.kind().name()).put("name", claim.name());
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static Claim decode(byte[] value) {
    JsonNode node = read(value);
    return new Claim(
        node.path("topic").asText(),
        NameKind.valueOf(node.path("kind").asText()),
        node.path("name").asText());
  }

  private static JsonNode read(byte[] value) {
    try {
      return JSON.readTree(value);
    } catch (IOException e) {
      throw new CatalogException("a catalog row is not valid JSON: " + e.getMessage(), e);
    }
  }
}
