package io.skippr.connect.iceberg;

import io.skippr.connect.aws.AssumeRole;
import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.aws.S3WriteOptions;
import io.skippr.connect.iceberg.io.LocalFileIO;
import io.skippr.connect.lake.publish.PublishConfig;
import io.skippr.connect.lake.storage.S3Config;
import io.skippr.connect.lake.storage.StorageConfig;
import io.skippr.connect.lake.write.LakeSinkConfig;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Namespace;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * The {@code iceberg.*} keys, named as in Iceberg's own sink: the catalog's name and its properties
 * ({@code iceberg.catalog.*}, passed to Iceberg's {@link CatalogUtil}), the namespace of the
 * tables, and how often registrations are committed.
 *
 * @param catalogName the catalog's name
 * @param catalogProperties what {@link CatalogUtil#buildIcebergCatalog} gets
 * @param namespace where a lake table {@code T} becomes the Iceberg table {@code namespace.T}
 * @param commitIntervalMs how long registrations gather before one Iceberg commit per table
 */
public record IcebergConfig(
    String catalogName,
    Map<String, String> catalogProperties,
    Namespace namespace,
    long commitIntervalMs) {
  public static final String CATALOG = "iceberg.catalog";
  public static final String CATALOG_PREFIX = "iceberg.catalog.";
  public static final String NAMESPACE = "iceberg.table.namespace";
  public static final String COMMIT_INTERVAL_MS = "iceberg.commit.interval.ms";

  /** FileIO of S3 lakes when none is configured. */
  static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";

  private static final String CATALOG_DOC =
      "The Iceberg catalog's name. Its properties are the keys iceberg.catalog.*, passed to"
          + " Iceberg's CatalogUtil without the prefix: iceberg.catalog.type (rest, jdbc, glue,"
          + " nessie, hive, hadoop) or iceberg.catalog.catalog-impl, iceberg.catalog.uri,"
          + " iceberg.catalog.warehouse, iceberg.catalog.jdbc.*, iceberg.catalog.s3.*, ..."
          + " Unset iceberg.catalog.io-impl: S3FileIO for a lake on S3 (with the lake's endpoint,"
          + " region, path style and keys unless iceberg.catalog.s3.* says otherwise), a local"
          + " FileIO without Hadoop for a local lake.";
  private static final String NAMESPACE_DOC =
      "The namespace of the Iceberg tables (levels separated by '.'): the lake table T is the"
          + " Iceberg table {namespace}.T, created from the lake's schema when it is missing.";
  private static final String COMMIT_INTERVAL_DOC =
      "How long committed units gather before they are registered in one Iceberg commit per"
          + " table. Registration lags the lake commit by about this much; 0 registers each"
          + " unit at once. A merge, and a unit that replaces files (write.policy="
          + "replace_partition), is registered at once: the files it replaced left the lake's"
          + " tables with it.";

  /** The keys, for the sink's ConfigDef and the reference. */
  public static ConfigDef configDef() {
    int order = 0;
    return new ConfigDef()
        .define(
            CATALOG,
            Type.STRING,
            "iceberg",
            new ConfigDef.NonEmptyStringWithoutControlChars(),
            Importance.MEDIUM,
            CATALOG_DOC,
            PublishConfig.GROUP,
            ++order,
            Width.MEDIUM,
            "Iceberg catalog")
        .define(
            NAMESPACE,
            Type.STRING,
            "default",
            ConfigDef.LambdaValidator.with(
                (key, value) -> namespace(key, String.valueOf(value)),
                () -> "levels of one or more characters separated by '.'"),
            Importance.MEDIUM,
            NAMESPACE_DOC,
            PublishConfig.GROUP,
            ++order,
            Width.MEDIUM,
            "Iceberg namespace")
        .define(
            COMMIT_INTERVAL_MS,
            Type.LONG,
            1000L,
            ConfigDef.Range.atLeast(0),
            Importance.MEDIUM,
            COMMIT_INTERVAL_DOC,
            PublishConfig.GROUP,
            ++order,
            Width.SHORT,
            "Iceberg commit interval");
  }

  /** Reads the keys of a connector's properties (already validated by the sink's ConfigDef). */
  public static IcebergConfig from(Map<String, String> props) {
    AbstractConfig parsed = new AbstractConfig(configDef(), props, false);
    LakeSinkConfig lake = new LakeSinkConfig(props);
    return new IcebergConfig(
        parsed.getString(CATALOG),
        catalogProperties(props, lake.storage()),
        namespace(NAMESPACE, parsed.getString(NAMESPACE)),
        parsed.getLong(COMMIT_INTERVAL_MS));
  }

  /** Problems of the catalog's properties, by key. */
  static Map<String, String> problems(Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    Map<String, String> catalog = prefixed(props);
    if (!catalog.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
        && !catalog.containsKey(CatalogProperties.CATALOG_IMPL)) {
      problems.put(
          CATALOG,
          "Name the catalog's kind: set iceberg.catalog.type (rest, jdbc, glue, nessie, hive,"
              + " hadoop) or iceberg.catalog.catalog-impl");
    }
    return problems;
  }

  private static Namespace namespace(String key, String value) {
    String[] levels = value.split("\\.", -1);
    if (value.isBlank() || Arrays.stream(levels).anyMatch(String::isBlank)) {
      throw new ConfigException(key, value, "use levels of one or more characters, e.g. lake.raw");
    }
    return Namespace.of(levels);
  }

  private static Map<String, String> prefixed(Map<String, String> props) {
    Map<String, String> catalog = new HashMap<>();
    props.forEach(
        (key, value) -> {
          if (key.startsWith(CATALOG_PREFIX)) {
            catalog.put(key.substring(CATALOG_PREFIX.length()), value);
          }
        });
    return catalog;
  }

  /**
   * The catalog's properties with the FileIO the lake needs when none is set: Iceberg reads the
   * lake's files (their footers) and writes its metadata through it.
   */
  static Map<String, String> catalogProperties(Map<String, String> props, StorageConfig storage) {
    Map<String, String> catalog = prefixed(props);
    if (storage.s3Location().isEmpty()) {
      catalog.putIfAbsent(CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName());
      return Map.copyOf(catalog);
    }
    catalog.putIfAbsent(CatalogProperties.FILE_IO_IMPL, S3_FILE_IO);
    // The lake's own HTTP client; Iceberg's default (Apache's) is not in the plugin.
    catalog.putIfAbsent("http-client.type", "urlconnection");
    AwsSettings aws = storage.s3().map(S3Config::aws).orElse(AwsSettings.defaults());
    if (aws.endpoint() != null) {
      catalog.putIfAbsent("s3.endpoint", aws.endpoint().toString());
    }
    if (aws.pathStyleAccess()) {
      catalog.putIfAbsent("s3.path-style-access", "true");
    }
    String region =
        aws.region() != null
            ? aws.region()
            : aws.endpoint() != null ? AwsSettings.FALLBACK_REGION : null;
    if (region != null) {
      catalog.putIfAbsent("client.region", region);
    }
    if (aws.credentials() != null) {
      catalog.putIfAbsent("s3.access-key-id", aws.credentials().accessKeyId());
      catalog.putIfAbsent("s3.secret-access-key", aws.credentials().secretAccessKey());
      if (aws.credentials().sessionToken() != null) {
        catalog.putIfAbsent("s3.session-token", aws.credentials().sessionToken());
      }
    } else if (aws.isLoopback() && !catalog.containsKey("s3.access-key-id")) {
      // A local S3-compatible server accepts any keys; the SDK's chain may have none here.
      catalog.put("s3.access-key-id", "local");
      catalog.put("s3.secret-access-key", "local");
    }
    assumeRoleAndEncryption(
        catalog, aws, region, storage.s3().map(S3Config::writeOptions).orElseThrow());
    return Map.copyOf(catalog);
  }

  /** The lake's assumed role, encryption and ACL in Iceberg's S3FileIO properties. */
  private static void assumeRoleAndEncryption(
      Map<String, String> catalog, AwsSettings aws, String region, S3WriteOptions write) {
    AssumeRole role = aws.assumeRole();
    if (role != null) {
      catalog.putIfAbsent("client.factory", "org.apache.iceberg.aws.AssumeRoleAwsClientFactory");
      catalog.putIfAbsent("client.assume-role.arn", role.roleArn());
      catalog.putIfAbsent("client.assume-role.session-name", role.sessionName());
      catalog.putIfAbsent("client.assume-role.region", region == null ? "us-east-1" : region);
      if (role.externalId() != null) {
        catalog.putIfAbsent("client.assume-role.external-id", role.externalId());
      }
    }
    if (write.customerKey() != null) {
      catalog.putIfAbsent("s3.sse.type", "custom");
      catalog.putIfAbsent("s3.sse.key", write.customerKey());
      catalog.putIfAbsent("s3.sse.md5", write.customerKeyMd5());
    } else if (write.encryption() == ServerSideEncryption.AES256) {
      catalog.putIfAbsent("s3.sse.type", "s3");
    } else if (write.encryption() != null) {
      catalog.putIfAbsent("s3.sse.type", "kms"); // Iceberg's S3FileIO has no DSSE-KMS
      if (write.kmsKeyId() != null) {
        catalog.putIfAbsent("s3.sse.key", write.kmsKeyId());
      }
    }
    if (write.acl() != null) {
      catalog.putIfAbsent("s3.acl", write.acl().toString());
    }
  }

  @Override
  public String toString() {
    // Catalog properties may hold secrets: only their names print.
    return "IcebergConfig[catalog="
        + catalogName
        + ", properties="
        + catalogProperties.keySet()
        + ", namespace="
        + namespace
        + ", commitIntervalMs="
        + commitIntervalMs
        + "]";
  }
}
