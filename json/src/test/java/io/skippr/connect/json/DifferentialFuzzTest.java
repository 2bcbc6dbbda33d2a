package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;

/**
 * Kafka's JsonConverter and ours on generated and hostile input, both directions, every setup
 * (schemas on and off, both decimal formats, null replacement on and off, tiny and large schema
 * caches, key, value and header converter). {@link Differential} states what must hold; the number
 * of tries is {@code fuzz.tries} (see {@link FuzzTries}). A failure prints its input as a line for
 * the regression corpus (src/test/resources/regressions/read.jsonl).
 */
@AddLifecycleHook(FuzzTries.class)
class DifferentialFuzzTest {
  /** One pair for the schema.content property, configured anew for each of its setups. */
  private static final Differential CONFIGURED_SCHEMA_PAIR = Differential.fresh(Setup.of(true));

  /** Connect values written by both give the same bytes, read back by both the same values. */
  @Property
  void writesAndReadsBackAsKafkaDoes(@ForAll long seed) {
    RandomConnect random = new RandomConnect(seed);
    Differential pair = Differential.of(RandomConnect.setup(random.random));
    Schema schema = random.schema(2);
    byte[] bytes = pair.write(schema, random.value(schema, true));
    if (bytes != null) {
      pair.read(bytes);
    }
  }

  /**
   * What Kafka's converter writes for valid records, ours reads in one streaming pass: the exact
   * (tree) path is only for input of another shape or input that fails.
   */
  @Property
  void streamsWhatKafkaWrites(@ForAll long seed) {
    RandomConnect random = new RandomConnect(seed);
    Differential pair = Differential.of(RandomConnect.setup(random.random));
    Schema schema = random.schema(2);
    Object value = random.value(schema, false);
    byte[] bytes = Outcome.of(() -> pair.kafka.fromConnectData("t", schema, value)).result();
    if (bytes == null) {
      return;
    }
    long before = pair.ours.exactReads();
    Outcome<SchemaAndValue> read = pair.read(bytes);
    if (!read.failed() && !pair.lossy(bytes)) {
      assertThat(pair.ours.exactReads())
          .as("streamed: %s", new String(bytes, StandardCharsets.UTF_8))
          .isEqualTo(before);
    }
  }

  /** The same for values without a schema (and Java types that have none). */
  @Property
  void writesSchemalessValuesAsKafkaDoes(@ForAll long seed) {
    RandomConnect random = new RandomConnect(seed);
    Differential pair = Differential.of(RandomConnect.setup(random.random));
    byte[] bytes = pair.write(null, random.schemaless(3));
    if (bytes != null) {
      pair.read(bytes);
    }
  }

  /**
   * What Kafka writes for a generated record, mutated: a token of another kind or size, a member
   * twice or gone, envelope keys swapped, whitespace, truncation, garbage, a flipped byte,
   * surrogates, invalid UTF-8.
   */
  @Property
  void readsMutatedRecordsAsKafkaDoes(@ForAll long seed) {
    RandomConnect random = new RandomConnect(seed);
    Differential pair = Differential.of(RandomConnect.setup(random.random));
    Schema schema = random.schema(2);
    byte[] written = written(pair, schema, random.value(schema, false));
    pair.read(HostileJson.mutate(written, random.random.nextLong()));
  }

  /** Random JSON text, plain and as the payload of an envelope with a generated schema. */
  @Property
  void readsRandomJsonAsKafkaDoes(@ForAll long seed) {
    RandomConnect random = new RandomConnect(seed);
    Differential pair = Differential.of(RandomConnect.setup(random.random));
    String json = HostileJson.randomJson(random.random.nextLong(), 4);
    pair.read(json.getBytes(StandardCharsets.UTF_8));
    String schema = schemaJson(random.schema(2));
    if (schema != null) {
      String envelope = "{\"schema\":" + schema + ",\"payload\":" + json + "}";
      pair.read(envelope.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** With schema.content: the record is the payload of the configured schema. */
  @Property
  void readsWithAConfiguredSchemaAsKafkaDoes(@ForAll long seed) {
    RandomConnect random = new RandomConnect(seed);
    Schema schema = random.schema(2);
    String content = schemaJson(schema);
    if (content == null) {
      return;
    }
    Differential pair =
        CONFIGURED_SCHEMA_PAIR.reconfigured(
            RandomConnect.setup(random.random).withSchemaContent(content));
    byte[] payload = Differential.of(Setup.of(false)).write(schema, random.value(schema, false));
    if (payload != null) {
      pair.read(payload);
      pair.read(HostileJson.mutate(payload, random.random.nextLong()));
    }
  }

  private static byte[] written(Differential pair, Schema schema, Object value) {
    byte[] bytes = Outcome.of(() -> pair.kafka.fromConnectData("t", schema, value)).result();
    return bytes != null
        ? bytes
        : "{\"schema\":null,\"payload\":{}}".getBytes(StandardCharsets.UTF_8);
  }

  /** The schema in Kafka's JSON form, from Kafka's converter; null if it cannot write it. */
  static String schemaJson(Schema schema) {
    try {
      var node = Differential.of(Setup.of(true)).kafka.asJsonSchema(schema);
      return node == null ? null : Differential.KAFKA_TREES.writeValueAsString(node);
    } catch (Exception e) {
      return null;
    }
  }
}
