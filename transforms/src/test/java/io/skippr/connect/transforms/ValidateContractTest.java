package io.skippr.connect.transforms;

import static io.skippr.connect.transforms.Records.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateContractTest {
  private static final Schema ITEM =
      SchemaBuilder.struct()
          .optional()
          .field("sku", Schema.STRING_SCHEMA)
          .field("price", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .optional()
          .field("id", Schema.INT64_SCHEMA)
          .field("at", Timestamp.builder().optional().build())
          .field("items", SchemaBuilder.array(ITEM).optional().build())
          .build();

  @TempDir Path dir;
  private Path file;

  @BeforeEach
  void saveContracts() {
    ContractStore store = new ContractStore(dir);
    PipelineId id = PipelineId.of("shop");
    Schema click =
        SchemaBuilder.struct()
            .optional()
            .field("type", Schema.STRING_SCHEMA)
            .field("x", Schema.INT32_SCHEMA)
            .build();
    store.save(id, List.of(new Contract("orders", ORDER), new Contract("events.click", click)));
    file = store.path(id);
  }

  private static ValidateContract<SinkRecord> validate(String... props) {
    ValidateContract<SinkRecord> smt = new ValidateContract<>();
    Map<String, String> config = new HashMap<>();
    for (int i = 0; i < props.length; i += 2) {
      config.put(props[i], props[i + 1]);
    }
    smt.configure(config);
    return smt;
  }

  @Test
  void aConformingRecordPassesConformedToTheContract() {
    Map<String, Object> value =
        map("id", 5, "at", "2024-05-01T00:00:00Z", "items", List.of(map("sku", "a")));
    SinkRecord out =
        validate("contract.path", file.toString()).apply(Records.value("orders", value));

    assertThat(out.valueSchema()).isEqualTo(ORDER);
    Struct struct = (Struct) out.value();
    assertThat(struct.getInt64("id")).isEqualTo(5L);
    assertThat(struct.get("at")).isEqualTo(Date.from(Instant.parse("2024-05-01T00:00:00Z")));
    assertThat(out.headers().lastWithName("trace")).isNotNull();

    SinkRecord in = Records.value("orders", value);
    SinkRecord unchanged =
        validate("contract.path", file.toString(), "output", "unchanged").apply(in);
    assertThat(unchanged).isSameAs(in);
  }

  @Test
  void aNonConformingRecordFailsNamingFieldAndReason() {
    ValidateContract<SinkRecord> smt = validate("contract.path", file.toString());

    assertThatThrownBy(
            () ->
                smt.apply(
                    Records.value(
                        "orders",
                        map(
                            "id",
                            1,
                            "items",
                            List.of(map("sku", "a"), map("sku", "b", "price", "x"))))))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "ValidateContract: value of topic orders: items[1].price: expected double, got"
                + " string \"x\"");
    assertThatThrownBy(() -> smt.apply(Records.value("orders", map("at", "2024-05-01"))))
        .hasMessageContaining("id: required value is missing");
    assertThatThrownBy(() -> smt.apply(Records.value("orders", map("id", 1, "new", true))))
        .hasMessageContaining("new: field is not in the schema");
  }

  @Test
  void findsContractsByNamespaceBeforeTheRouter() {
    ValidateContract<SinkRecord> smt =
        validate(
            "contract.pipeline",
            "shop",
            "contract.data.dir",
            dir.toString(),
            "namespace.fields",
            "type");
    Struct ok = (Struct) smt.apply(Records.value("events", map("type", "click", "x", 1))).value();
    assertThat(ok.getInt32("x")).isEqualTo(1);
    assertThatThrownBy(() -> smt.apply(Records.value("events", map("type", "click", "x", "1"))))
        .hasMessageContaining("topic events (namespace events.click): x: expected int32");
    assertThatThrownBy(() -> smt.apply(Records.value("events", map("type", "view", "x", 1))))
        .hasMessageContaining("no contract for events.view");
  }

  @Test
  void recordsWithoutAContractFailOrPass() {
    SinkRecord other = Records.value("other", map("a", 1));
    assertThatThrownBy(() -> validate("contract.path", file.toString()).apply(other))
        .hasMessageContaining("no contract for other in " + file)
        .hasMessageContaining("it has orders, events.click");
    assertThat(validate("contract.path", file.toString(), "contract.missing", "pass").apply(other))
        .isSameAs(other);
    SinkRecord fixed =
        validate("contract.path", file.toString(), "contract.namespace", "orders")
            .apply(Records.value("anything", map("id", 3)));
    assertThat(((Struct) fixed.value()).getInt64("id")).isEqualTo(3L);
  }

  @Test
  void readsASingleContractFile() throws Exception {
    Path single = dir.resolve("orders.json");
    Files.writeString(single, new Contract("orders", ORDER).toJson());
    SinkRecord out =
        validate("contract.path", single.toString()).apply(Records.value("orders", map("id", 1)));
    assertThat(out.valueSchema()).isEqualTo(ORDER);
  }

  @Test
  void rejectsBadConfiguration() {
    assertThatThrownBy(() -> validate())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("contract.path or contract.pipeline");
    assertThatThrownBy(() -> validate("contract.path", dir.resolve("nope.json").toString()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no such file");
    assertThatThrownBy(
            () -> validate("contract.path", file.toString(), "contract.pipeline", "shop"))
        .hasMessageContaining("not both");
    assertThatThrownBy(
            () -> validate("contract.pipeline", "ghost", "contract.data.dir", dir.toString()))
        .hasMessageContaining("no contracts saved")
        .hasMessageContaining("skippr discover");
    assertThatThrownBy(() -> validate("contract.path", file.toString(), "contract.namespace", "x"))
        .hasMessageContaining("no such contract");
  }

  @Test
  void rejectsBadS3Settings() {
    assertThatThrownBy(() -> validate("contract.pipeline", "shop", "contract.data.dir", "s3://"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value s3:// for configuration contract.data.dir: no bucket in s3://; use"
                + " s3://bucket/prefix");
    assertThatThrownBy(
            () -> validate("contract.pipeline", "shop", "contract.data.dir", "s3://Bad_Bucket/p"))
        .hasMessageContaining("bucket 'Bad_Bucket' is not a valid S3 bucket name");
    assertThatThrownBy(
            () -> validate("contract.pipeline", "shop", "contract.s3.endpoint", "127.0.0.1:9000"))
        .hasMessage(
            "Invalid value 127.0.0.1:9000 for configuration contract.s3.endpoint: expected empty"
                + " or http(s)://host[:port]");
    assertThatThrownBy(() -> validate("contract.pipeline", "shop", "contract.s3.region", "EU West"))
        .hasMessageContaining("contract.s3.region: expected empty or a region name");
    assertThatThrownBy(
            () -> validate("contract.pipeline", "shop", "contract.s3.path.style.access", "yes"))
        .hasMessageContaining("contract.s3.path.style.access");
  }
}
