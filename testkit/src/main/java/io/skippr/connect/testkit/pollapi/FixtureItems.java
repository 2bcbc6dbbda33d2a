package io.skippr.connect.testkit.pollapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixture API's records, like a shop's orders: {@code id} (unique, increasing), {@code
 * updated_at} (ISO-8601 seconds, several records per second, so cursors repeat across page
 * borders), and some nested and list fields. Listed in (updated_at, id) order.
 */
public final class FixtureItems {

  /** The first record's timestamp. */
  public static final Instant BASE = Instant.parse("2024-05-01T00:00:00Z");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "US", "JP"};

  /** A record and its place in the listing (kept apart: the JSON may lack the fields). */
  private record Item(long id, String updatedAt, ObjectNode json) {}

  private final List<Item> items = new ArrayList<>();
  private final int perSecond;
  private long nextId = 1;
  private long second;

  /**
   * @param perSecond records sharing one timestamp
   */
  FixtureItems(int perSecond) {
    this.perSecond = perSecond;
  }

  /** Appends records after the newest one (the last of them may share its timestamp). */
  public synchronized List<Long> add(int count) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long id = nextId++;
      if (items.size() % perSecond == 0 && !items.isEmpty()) {
        second++;
      }
      items.add(item(id, BASE.plusSeconds(second).toString()));
      ids.add(id);
    }
    return ids;
  }

  /** Appends a record with exactly the newest timestamp (an equal cursor after a pass saw it). */
  public synchronized long addAtLastTimestamp() {
    long id = nextId++;
    items.add(item(id, BASE.plusSeconds(second).toString()));
    return id;
  }

  /** Appends a record (at the newest timestamp) whose JSON lacks {@code field}. */
  public synchronized long addWithout(String field) {
    long id = addAtLastTimestamp();
    items.get(items.size() - 1).json().remove(field);
    return id;
  }

  /** Records at or after {@code since} (all when null), in (updated_at, id) order. */
  synchronized List<ObjectNode> since(String since) {
    List<ObjectNode> out = new ArrayList<>();
    for (Item item : items) {
      if (since == null || since.isEmpty() || item.updatedAt().compareTo(since) >= 0) {
        out.add(item.json());
      }
    }
    return out;
  }

  /** Records after the keyset (updated_at, id), in order. */
  synchronized List<ObjectNode> after(String updatedAt, long id) {
    List<ObjectNode> out = new ArrayList<>();
    for (Item item : items) {
      int cmp = item.updatedAt().compareTo(updatedAt);
      if (cmp > 0 || (cmp == 0 && item.id() > id)) {
        out.add(item.json());
      }
    }
    return out;
  }

  /** The cursor (updated_at) of a record. */
  public synchronized String updatedAt(long id) {
    return items.stream()
        .filter(i -> i.id() == id)
        .findFirst()
        .map(Item::updatedAt)
        .orElseThrow(() -> new IllegalArgumentException("no record " + id));
  }

  public synchronized List<Long> ids() {
    return items.stream().map(Item::id).toList();
  }

  public synchronized int size() {
    return items.size();
  }

  /** The keyset (updated_at, id) of a listed record, also when its JSON lacks them. */
  synchronized String keyset(ObjectNode json) {
    for (Item item : items) {
      if (item.json() == json) {
        return item.updatedAt() + "|" + item.id();
      }
    }
    throw new IllegalArgumentException("not a record of this API");
  }

  private static Item item(long id, String updatedAt) {
    ObjectNode item = JSON.createObjectNode();
    item.put("id", id);
    item.put("updated_at", updatedAt);
    item.put("number", String.format("ORD-%06d", id));
    item.put("total", Math.round(id * 137 % 100_000) / 100.0);
    item.put("paid", id % 3 != 0);
    ObjectNode customer = item.putObject("customer");
    customer.put("id", 1000 + id % 97);
    customer.put("country", COUNTRIES[(int) (id % COUNTRIES.length)]);
    item.putArray("skus").add("SKU-" + (id % 13)).add("SKU-" + (id % 7));
    if (id % 5 == 0) {
      item.putNull("note");
    } else {
      item.put("note", "order " + id + ", \"gift\" \\ wrap");
    }
    return new Item(id, updatedAt, item);
  }
}
