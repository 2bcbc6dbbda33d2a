package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.Schemas;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery against the real HTTP poll source and the fixture API: the sampled pages become one
 * contract, and sample mode opens no state store (no offsets read or mirrored).
 */
class HttpPollDiscoveryTest {
  @TempDir Path dir;

  @Test
  void polledRecordsBecomeAContractWithoutTouchingTheStateStore() throws Exception {
    try (PollFixtureApi api = PollFixtureApi.start(7)) {
      api.add(30);
      Path yml = dir.resolve("skippr.yml");
      Files.writeString(
          yml,
          String.join(
              "\n",
              "pipelines:",
              "  shop:",
              "    source:",
              "      class: io.skippr.connect.source.poll.HttpPollSourceConnector",
              "      config:",
              "        http: {url: '" + api.url("/token/items") + "', params: limit=10}",
              "        topic: shop.orders",
              "        records.pointer: /items",
              "        cursor: {pointer: /updated_at, param: since, tiebreak.pointer: /id}",
              "        pagination: {mode: token, next.pointer: /next_page_token}",
              "        store.rocksdb.path: " + dir.resolve("state"),
              ""));
      CommandRun run =
          CommandRun.of(
              new DiscoverCommand(Map.of(), dir),
              List.of(
                  "--pipeline",
                  "shop",
                  "--config",
                  yml.toString(),
                  "--data-dir",
                  dir.resolve("data").toString(),
                  "--plugin-dir",
                  dir.resolve("no-plugins").toString(),
                  "--sample",
                  "25",
                  "--timeout",
                  "30"));

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).startsWith("pipeline default/default/shop: sampled 25 records");
      List<Contract> saved = new ContractStore(dir.resolve("data")).load(PipelineId.of("shop"));
      assertThat(saved).extracting(Contract::namespace).containsExactly("shop.orders");
      List<String> fields = new ArrayList<>();
      for (Field field : saved.get(0).fields()) {
        fields.add(field.name() + "=" + Schemas.typeName(field.schema()));
      }
      assertThat(fields)
          .containsExactly(
              "customer=struct",
              "id=int32",
              "note=string",
              "number=string",
              "paid=boolean",
              "skus=array",
              "total=double",
              "updated_at=timestamp");
      assertThat(dir.resolve("state")).doesNotExist();
      assertThat(api.served().get(0).query()).doesNotContainKey("since");
    }
  }
}
