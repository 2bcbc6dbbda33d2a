package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.Schemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr discover} samples a directory through the real file source: the contract is
 * inferred from its NDJSON lines, and sampling completes no file (nothing was committed).
 */
class FileSourceDiscoveryTest {
  @TempDir Path dir;

  @Test
  void aDirectoryOfNdjsonFilesBecomesOneContractAndStaysUntouched() throws Exception {
    Path inbox = Files.createDirectories(dir.resolve("inbox"));
    Files.writeString(
        inbox.resolve("a.ndjson"),
        "{\"id\":1,\"total\":9.5,\"at\":\"2024-05-01T12:00:00Z\",\"items\":[{\"sku\":\"x\",\"qty\":2}]}\n"
            + "not json\n"
            + "{\"id\":2,\"total\":3,\"note\":\"gift\"}\n");
    Files.writeString(inbox.resolve("b.ndjson"), "{\"id\":3,\"total\":1.25,\"paid\":true}\n");
    Path yml = dir.resolve("skippr.yml");
    Files.writeString(
        yml,
        String.join(
            "\n",
            "pipelines:",
            "  orders:",
            "    source:",
            "      class: io.skippr.connect.source.file.FileSourceConnector",
            "      config:",
            "        file: {dir: '"
                + inbox
                + "', format: ndjson, min.age.ms: 0,"
                + " completed.policy: delete}",
            "        topic: orders",
            "        state.mirror: 'off'",
            ""));
    CommandRun run =
        CommandRun.of(
            new DiscoverCommand(Map.of(), dir),
            List.of(
                "--pipeline",
                "orders",
                "--config",
                yml.toString(),
                "--data-dir",
                dir.resolve("data").toString(),
                "--plugin-dir",
                dir.resolve("no-plugins").toString(),
                "--sample",
                "3",
                "--timeout",
                "60"));

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("pipeline default/default/orders: sampled 3 records");
    List<Contract> saved = new ContractStore(dir.resolve("data")).load(PipelineId.of("orders"));
    assertThat(saved).extracting(Contract::namespace).containsExactly("orders");
    List<String> fields = new ArrayList<>();
    for (Field field : saved.get(0).fields()) {
      fields.add(field.name() + "=" + Schemas.typeName(field.schema()));
    }
    assertThat(fields)
        .contains("id=int32", "total=double", "at=timestamp", "note=string", "paid=boolean");
    assertThat(inbox.resolve("a.ndjson")).as("sampling completes nothing").exists();
    assertThat(inbox.resolve("b.ndjson")).exists();
  }
}
