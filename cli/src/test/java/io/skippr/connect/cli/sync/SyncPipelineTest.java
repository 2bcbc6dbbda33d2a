package io.skippr.connect.cli.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.cli.discover.PipelineSpec;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.testkit.ConfigReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyncPipelineTest {
  private static PipelineSpec spec(
      String sourceClass,
      Map<String, String> source,
      Map<String, String> lake,
      Map<String, String> sync) {
    return new PipelineSpec(
        new PipelineId("acme", "prod", "orders"),
        sourceClass,
        source,
        List.of(),
        ".",
        Map.of("transforms", "infer"),
        lake,
        sync);
  }

  private static PipelineSpec files(Map<String, String> source, Map<String, String> lake) {
    return spec("io.skippr.connect.source.file.FileSourceConnector", source, lake, Map.of());
  }

  @Test
  void refusesThePushIngestSourceInOneLine() {
    assertThatThrownBy(
            () ->
                SyncPipeline.of(
                    spec(
                        SyncPipeline.INGEST_SOURCE,
                        Map.of(),
                        Map.of("topics.dir", "/l"),
                        Map.of())))
        .isInstanceOf(SyncException.class)
        .hasMessage(
            "pipelines.orders: the HTTP push ingest source needs Kafka as its write-ahead log (a"
                + " client's write is acknowledged once Kafka has it); run it under Connect");
  }

  @Test
  void needsALake() {
    assertThatThrownBy(() -> SyncPipeline.of(files(Map.of(), Map.of())))
        .hasMessageStartingWith("pipelines.orders.lake.config is missing");
  }

  @Test
  void namesABadLakeKeyAndABadSyncKey() {
    assertThatThrownBy(
            () ->
                SyncPipeline.of(files(Map.of(), Map.of("topics.dir", "/l", "flush.size", "x")))
                    .lakeProps())
        .hasMessageStartingWith("pipelines.orders.lake.config: flush.size: ");
    assertThatThrownBy(
            () ->
                SyncPipeline.of(
                    spec("A", Map.of(), Map.of("topics.dir", "/l"), Map.of("sync.idle.ms", "5"))))
        .hasMessageContaining("pipelines.orders.sync: ")
        .hasMessageContaining("sync.idle.ms");
  }

  @Test
  void keepsTheStateOfSourceAndLakeInOneStoreInThePipelinesScope() {
    SyncPipeline pipeline =
        SyncPipeline.of(
            files(
                Map.of("store.type", "rocksdb", "pipeline.name", "elsewhere", "topic", "orders"),
                Map.of("topics.dir", "/l", "store.rocksdb.path", "/state")));
    assertThat(pipeline.storeProps())
        .containsEntry("store.type", "rocksdb")
        .containsEntry("store.rocksdb.path", "/state")
        .containsEntry("pipeline.tenant", "acme")
        .containsEntry("pipeline.workspace", "prod")
        .containsEntry("pipeline.name", "orders")
        .containsEntry("name", "orders");
    assertThat(pipeline.sourceProps())
        .containsEntry("store.rocksdb.path", "/state")
        .containsEntry("pipeline.name", "orders")
        .containsEntry("transforms", "infer")
        .containsEntry("connector.class", "io.skippr.connect.source.file.FileSourceConnector");
    assertThat(pipeline.lakeProps()).containsEntry("store.type", "rocksdb");
    assertThat(pipeline.logTopic()).isEqualTo("sync~orders");

    assertThatThrownBy(
            () ->
                SyncPipeline.of(
                    files(
                        Map.of("store.type", "dynamodb"),
                        Map.of("topics.dir", "/l", "store.type", "rocksdb"))))
        .hasMessageContaining("set store.type differently ('rocksdb' and 'dynamodb')");
  }

  @Test
  void theSyncKeysAreDocumented() {
    ConfigReference.check("sync", "skippr sync", SyncConfig.CONFIG_DEF);
  }
}
