package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.lake.ConnectorConfigs;
import io.skippr.connect.cli.lake.OneLineErrors;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skippr audit}: compares a lake's logs with Kafka and with storage. */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compares, per topic partition, the offset ranges the lake's logs committed with the"
          + " offsets Kafka holds (log start, end) and with the connector group's committed"
          + " offset, and the files the logs list with the files storage has. Reads only.",
      "Reports gaps (offsets in no unit that hold records in Kafka: the gap's start is fetched"
          + " read_committed, so transaction markers, aborted and compacted records are not"
          + " gaps), overlaps (offsets in two units: duplicate rows), pending intents, records"
          + " that expired from Kafka before they landed, a group offset past the lake (records a"
          + " consumer resuming from the group skips), lag, files the log lists that storage"
          + " lacks, and files storage has that no log lists (in flight when a unit is writing"
          + " them, else orphans).",
      "Lake maintenance moves rows between files but never changes the units: merged files"
          + " cover their inputs' offsets (no overlap), retired inputs waiting out"
          + " compaction.grace.ms are no orphans and, once deleted, not missing; a merge under way"
          + " and what retention expired are reported as notes, not as gaps.",
      "It reports what the sink would refuse to open: a lake with TP logs but no identity"
          + " (_skippr/lake.json), log entries it cannot read or trust (truncated, edited, failing"
          + " their checksum, of a newer format), logs written for another lake, stored table"
          + " schemas it cannot read; with --verify-files, live files whose size or SHA-256"
          + " differ from their commit.",
      "Logs of skippr sync runs (topics sync~PIPELINE) are checked without Kafka: units that"
          + " follow on, overlaps, pending intents and files.",
      "Exit code 0 when nothing is wrong, even with lag, pending intents, expired records or"
          + " orphans (reported as warnings); 1 on a gap, an overlap, a missing file, a group"
          + " offset past the lake, missing log entries or anything the sink would refuse; 1"
          + " with a one-line reason when the audit cannot run.",
      "",
      "Examples:",
      "  skippr audit --connector orders-lake --connect-url http://127.0.0.1:8083"
          + " --bootstrap-servers 127.0.0.1:9092",
      "  skippr audit --connector orders-lake --bootstrap-servers 127.0.0.1:9092"
          + " --topics-dir s3://bucket/lake --lake s3.region=eu-west-1 --output json",
      "  skippr audit --topics-dir /srv/lake    (a lake of skippr sync runs: no Kafka)",
      ""
    })
public final class AuditCommand implements Callable<Integer> {
  /** How the report is printed. */
  enum Output {
    text,
    json
  }

  @Option(
      names = "--connector",
      paramLabel = "NAME",
      description =
          "The lake sink connector: its consumer group (connect-NAME, or its"
              + " consumer.override.group.id) is compared, and with --connect-url its config"
              + " names the lake, the topics and how to reach Kafka.")
  String connector;

  @Option(
      names = "--connect-url",
      paramLabel = "URL",
      description =
          "Connect's REST API (e.g. http://127.0.0.1:8083): reads the connector's config."
              + " Secrets kept by a config provider stay placeholders: give them with --lake.")
  String connectUrl;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT[,...]",
      description =
          "Kafka (default: the connector's consumer.override.bootstrap.servers). Needed unless"
              + " the lake holds only skippr sync logs.")
  String bootstrapServers;

  @Option(
      names = "--topics-dir",
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      description = "The lake's root (the sink's topics.dir), over the connector's.")
  String topicsDir;

  @Option(
      names = "--lake",
      paramLabel = "KEY=VALUE",
      description =
          "A lake sink setting, over the connector's (e.g. s3.region=eu-west-1,"
              + " s3.endpoint=http://127.0.0.1:9000); repeatable.")
  Map<String, String> lake = new LinkedHashMap<>();

  @Option(
      names = "--kafka",
      paramLabel = "KEY=VALUE",
      description =
          "A Kafka client setting (security.protocol, sasl.*, ssl.*), over the connector's"
              + " consumer overrides; repeatable.")
  Map<String, String> kafka = new LinkedHashMap<>();

  @Option(
      names = "--group",
      paramLabel = "ID",
      description = "The consumer group to compare, over the connector's.")
  String group;

  @Option(
      names = "--output",
      defaultValue = "text",
      paramLabel = "text|json",
      description = "text: a line per partition and its findings; json: one JSON document.")
  Output output;

  @Option(
      names = "--verify-files",
      description =
          "Also read every live file and compare its size and SHA-256 with what its commit"
              + " recorded (reads the whole lake).")
  boolean verifyFiles;

  @Option(
      names = "--timeout",
      defaultValue = "30",
      paramLabel = "S",
      description =
          "Most seconds per request to Connect and Kafka, and per fetch at a gap (default:"
              + " ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    return OneLineErrors.run(
        spec,
        out -> {
          AuditReport report =
              new AuditRun(target(), Duration.ofSeconds(timeoutSeconds), verifyFiles).run();
          out.print(output == Output.json ? ReportJson.of(report) + "\n" : ReportText.of(report));
          return report.exitCode();
        });
  }

  private AuditTarget target() {
    if (timeoutSeconds < 1) {
      throw new AuditException("--timeout must be at least 1");
    }
    Map<String, String> config = Map.of();
    if (connectUrl != null) {
      if (connector == null) {
        throw new AuditException("--connect-url needs --connector NAME");
      }
      config =
          new ConnectorConfigs(Duration.ofSeconds(timeoutSeconds)).config(connectUrl, connector);
    }
    return AuditTarget.resolve(
        new AuditTarget.Request(connector, bootstrapServers, group, topicsDir, lake, kafka),
        config);
  }
}
