package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * Kafka's converter and ours side by side on the same input. Reading, both must give equal schemas
 * and values (compared down to bytes and float bits) or both fail with a DataException of the same
 * message; the only allowed departure is the documented one, decided by {@link KafkaLosses} on
 * Kafka's own tree. Writing, both must give the same bytes or the same error.
 */
final class Differential {
  /** Kafka's deserializer settings, for the oracle's view of the input. */
  static final ObjectMapper KAFKA_TREES =
      new ObjectMapper()
          .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS.mappedFeature())
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .setNodeFactory(new JsonNodeFactory(true));

  private static final Map<Setup, Differential> PAIRS =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Setup, Differential> eldest) {
          return size() > 64;
        }
      };

  final Setup setup;
  final JsonConverter kafka;
  final StreamingJsonConverter ours;

  private Differential(Setup setup) {
    this(setup, setup.kafka(), setup.ours());
  }

  private Differential(Setup setup, JsonConverter kafka, StreamingJsonConverter ours) {
    this.setup = setup;
    this.kafka = kafka;
    this.ours = ours;
  }

  /**
   * This pair's converters configured anew for another setup: cheaper than new converters (Kafka's
   * builds a Jackson mapper per instance) where setups rarely repeat, as with schema.content.
   */
  Differential reconfigured(Setup other) {
    other.configure(kafka);
    other.configure(ours);
    return new Differential(other, kafka, ours);
  }

  /** A pair per setup, kept across inputs so the schema caches see many records. */
  static synchronized Differential of(Setup setup) {
    return PAIRS.computeIfAbsent(setup, Differential::new);
  }

  static Differential fresh(Setup setup) {
    return new Differential(setup);
  }

  /** Reads with both and checks ours against Kafka's; returns Kafka's outcome. */
  Outcome<SchemaAndValue> read(byte[] input) {
    Outcome<SchemaAndValue> theirs = Outcome.of(() -> kafkaRead(input));
    Outcome<SchemaAndValue> mine = Outcome.of(() -> oursRead(input));
    if (mine.failed() && !(mine.error() instanceof DataException)) {
      fail(report("not a DataException", input, theirs, mine));
    }
    if (!theirs.failed() && !mine.failed()) {
      bothRead(input, theirs, mine);
    } else if (theirs.failed() && !mine.failed()) {
      fail(report("Kafka fails, ours does not", input, theirs, mine));
    } else if (!theirs.failed()) {
      boolean refused = mine.error() instanceof LossyValueException && lossy(input);
      if (!refused && !takenForAnotherName(input, mine.error())) {
        fail(report("ours fails where Kafka loses nothing", input, theirs, mine));
      }
    } else if (!theirs.error().getMessage().equals(mine.error().getMessage())
        || mine.error() instanceof LossyValueException) {
      // where Kafka's converter fails, ours fails with Kafka's error, whatever else it refuses
      fail(report("different errors", input, theirs, mine));
    }
    return theirs;
  }

  /** Both read it: the same schema and value, or a difference the rule allows. */
  private void bothRead(
      byte[] input, Outcome<SchemaAndValue> theirs, Outcome<SchemaAndValue> mine) {
    SchemaAndValue k = theirs.result();
    SchemaAndValue o = mine.result();
    boolean same =
        ConnectEquality.schemasEqual(k.schema(), o.schema())
            && ConnectEquality.valuesEqual(k.value(), o.value());
    if (!same && !(lossy(input) && hasNonFiniteString(input, setup.schemaContent()))) {
      fail(report("different values", input, theirs, mine));
    }
  }

  /** Writes with both and checks ours against Kafka's; returns Kafka's bytes or null. */
  byte[] write(Schema schema, Object value) {
    Outcome<byte[]> theirs = Outcome.of(() -> kafkaWrite(schema, value));
    Outcome<byte[]> mine = Outcome.of(() -> oursWrite(schema, value));
    String where = "schema " + schema + ", value " + value + ", " + setup;
    if (theirs.failed() || mine.failed()) {
      assertThat(mine.failed())
          .as(
              "ours fails exactly when Kafka fails: %s; Kafka: %s; ours: %s",
              where, theirs.describe(), mine.describe())
          .isEqualTo(theirs.failed());
      assertThat(mine.error()).as(where).isInstanceOf(DataException.class);
      if (theirs.error() instanceof DataException) {
        assertThat(mine.error().getMessage()).as(where).isEqualTo(theirs.error().getMessage());
      }
      return null;
    }
    byte[] k = theirs.result();
    byte[] o = mine.result();
    if (!Arrays.equals(k, o)) {
      fail(
          "different bytes for "
              + where
              + "\nKafka: "
              + (k == null ? null : new String(k, StandardCharsets.UTF_8))
              + "\nours:  "
              + (o == null ? null : new String(o, StandardCharsets.UTF_8)));
    }
    return k;
  }

  private SchemaAndValue kafkaRead(byte[] input) {
    return setup.role() == ConverterType.HEADER
        ? kafka.toConnectHeader("t", "h", input)
        : kafka.toConnectData("t", input);
  }

  private SchemaAndValue oursRead(byte[] input) {
    return setup.role() == ConverterType.HEADER
        ? ours.toConnectHeader("t", "h", input)
        : ours.toConnectData("t", input);
  }

  private byte[] kafkaWrite(Schema schema, Object value) {
    return setup.role() == ConverterType.HEADER
        ? kafka.fromConnectHeader("t", "h", schema, value)
        : kafka.fromConnectData("t", schema, value);
  }

  private byte[] oursWrite(Schema schema, Object value) {
    return setup.role() == ConverterType.HEADER
        ? ours.fromConnectHeader("t", "h", schema, value)
        : ours.fromConnectData("t", schema, value);
  }

  /**
   * A name with a 0xFF byte (never UTF-8), which Kafka's parser may take for a name it has seen
   * before (Jackson pads names with 0xFF in its table of names) where ours always fails to parse.
   */
  private static boolean takenForAnotherName(byte[] input, Throwable ours) {
    return Jackson.hasByteFf(input)
        && ours.getMessage().startsWith("Converting byte[] to Kafka Connect data failed");
  }

  /** The oracle: whether Kafka's converter reads this input as something other than written. */
  boolean lossy(byte[] input) {
    JsonNode root;
    try {
      root = KAFKA_TREES.readTree(input);
    } catch (Exception e) {
      return false;
    }
    if (!setup.schemasEnable()) {
      return KafkaLosses.lossy(null, root);
    }
    if (setup.schemaContent() != null) {
      return lossyUnder(parse(setup.schemaContent()), root);
    }
    if (!root.isObject() || root.size() != 2 || !root.has("schema") || !root.has("payload")) {
      return false;
    }
    return lossyUnder(root.get("schema"), root.get("payload"));
  }

  private boolean lossyUnder(JsonNode schemaJson, JsonNode payload) {
    if (schemaJson == null || schemaJson.isNull()) {
      return KafkaLosses.lossy(null, payload);
    }
    Schema shape;
    try {
      shape = kafka.asConnectSchema(withoutDefaults(schemaJson.deepCopy()));
    } catch (RuntimeException e) {
      return false;
    }
    return KafkaLosses.lossyDefaults(schemaJson, shape) || KafkaLosses.lossy(shape, payload);
  }

  private static JsonNode withoutDefaults(JsonNode json) {
    if (json instanceof ObjectNode object) {
      object.remove("default");
      for (Iterator<JsonNode> i = object.elements(); i.hasNext(); ) {
        withoutDefaults(i.next());
      }
    } else if (json.isArray()) {
      json.forEach(Differential::withoutDefaults);
    }
    return json;
  }

  private static JsonNode parse(String json) {
    try {
      return KAFKA_TREES.readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether the record or its configured schema holds NaN or an infinity as a string. */
  private static boolean hasNonFiniteString(byte[] input, String schemaContent) {
    String text = new String(input, StandardCharsets.UTF_8) + schemaContent;
    return text.contains("\"NaN\"") || text.contains("Infinity\"");
  }

  private String report(String what, byte[] input, Outcome<?> theirs, Outcome<?> mine) {
    String report = fullReport(what, input, theirs, mine);
    // messages this long are cut in test reports: the whole case goes to a file as well
    try {
      Files.writeString(
          Path.of("target", "differential-failures.txt"),
          report + "\n\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      // the assertion message still has the case
    }
    return report;
  }

  private String fullReport(String what, byte[] input, Outcome<?> theirs, Outcome<?> mine) {
    return what
        + "\nsetup: "
        + setup
        + "\ninput: "
        + Regressions.line(setup, input)
        + "\nKafka: "
        + theirs.describe()
        + "\nours:  "
        + mine.describe();
  }

  static String base64(byte[] input) {
    return Base64.getEncoder().encodeToString(input);
  }
}
