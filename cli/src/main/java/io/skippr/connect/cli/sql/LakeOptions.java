package io.skippr.connect.cli.sql;

import io.skippr.connect.cli.lake.ConnectorConfigs;
import io.skippr.connect.cli.lake.LakeException;
import io.skippr.connect.cli.lake.LakeSettings;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import io.skippr.connect.lake.write.LakeSinkConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How {@code skippr sql} and {@code skippr files} name the lake and learn its tables' policies (the
 * lake's record, the connector's config, {@code --merge-key}: {@link TableScope}).
 */
final class LakeOptions {
  static final String DEFAULT_CONNECT_URL = "http://127.0.0.1:8083";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

  @Option(
      names = "--lake",
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      description =
          "The lake's root (the lake sink's topics.dir): a directory, a file:// URI or"
              + " s3://BUCKET/PREFIX; over the connector's.")
  String lake;

  @Option(
      names = "--connector",
      paramLabel = "NAME",
      description =
          "A lake sink connector, its config read from Connect's REST API: its lake, its S3"
              + " settings, and its write.policy and merge.key.fields for the tables its topics"
              + " write, over the policies the lake records (only those tables are read).")
  String connector;

  @Option(
      names = "--connect-url",
      paramLabel = "URL",
      description = "Connect's REST API, with --connector (default: " + DEFAULT_CONNECT_URL + ").")
  String connectUrl;

  @Option(
      names = "--setting",
      paramLabel = "KEY=VALUE",
      description =
          "A lake sink setting, over the connector's: s3.endpoint, s3.region,"
              + " s3.path.style.access, sts.role.arn, ... (credentials come from the AWS default"
              + " chain, as for the sink); repeatable.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = "--merge-key",
      paramLabel = "TABLE[=FIELD,...]",
      description =
          "Read TABLE as write.policy=merge_by_key: its current state, the last row of each key"
              + " in (topic partition, offset) order unless it deletes the key. The key is the"
              + " FIELDs (merge.key.fields), or the record key (__key) without them. Over the"
              + " policy the connector's config and the lake record (needed only for tables of a"
              + " lake written before the lake recorded policies); repeatable.")
  List<String> mergeKeys = new ArrayList<>();

  /**
   * Reads the connector's config when one is named, and opens the lake.
   *
   * @throws LakeException when the lake is not named or cannot be opened
   */
  LakeCatalog open() {
    if (connectUrl != null && connector == null) {
      throw new LakeException("--connect-url needs --connector NAME");
    }
    Map<String, String> config = Map.of();
    if (connector != null) {
      config =
          new ConnectorConfigs(CONNECT_TIMEOUT)
              .config(connectUrl == null ? DEFAULT_CONNECT_URL : connectUrl, connector);
    }
    LakeSettings settings =
        LakeSettings.resolve(
            connector, config, lake, this.settings, "--lake DIR|s3://BUCKET/PREFIX");
    LakeSinkConfig sink = settings.config();
    TableScope scope =
        connector == null
            ? TableScope.wholeLake(declared())
            : new TableScope(settings, policy(sink.writePolicy()), declared());
    return new LakeCatalog(sink.storage().open(), scope);
  }

  private static TablePolicy policy(WritePolicyConfig.Settings settings) {
    return settings.policy() == WritePolicyConfig.Policy.MERGE_BY_KEY
        ? TablePolicy.mergeByKey(settings.keyFields())
        : TablePolicy.APPEND;
  }

  private Map<String, TablePolicy> declared() {
    Map<String, TablePolicy> declared = new LinkedHashMap<>();
    for (String option : mergeKeys) {
      int equals = option.indexOf('=');
      String table = equals < 0 ? option : option.substring(0, equals);
      List<String> fields =
          equals < 0
              ? List.of()
              : Arrays.stream(option.substring(equals + 1).split(","))
                  .map(String::trim)
                  .filter(f -> !f.isEmpty())
                  .toList();
      if (table.isBlank()) {
        throw new LakeException("--merge-key " + option + " names no table");
      }
      declared.put(table, TablePolicy.mergeByKey(fields));
    }
    return declared;
  }
}
