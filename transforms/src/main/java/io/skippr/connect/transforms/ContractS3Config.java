package io.skippr.connect.transforms;

import io.skippr.connect.aws.AwsCredentialsConfig;
import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.aws.ConfigLookup;
import io.skippr.connect.schema.s3.S3ContractSettings;
import java.net.URI;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * How to reach the bucket when contracts are read from S3 ({@code contract.data.dir} is {@code
 * s3://bucket/prefix}, or the worker's {@code SKIPPR_S3_BUCKET} is set). Each key overrides the
 * worker's environment variable of the same meaning; credentials come from the AWS SDK's default
 * chain (environment, profile, web identity, container or instance role), with the role of {@code
 * contract.s3.sts.role.arn} assumed on top.
 */
public final class ContractS3Config {
  public static final String ENDPOINT = "contract.s3.endpoint";
  public static final String REGION = "contract.s3.region";
  public static final String PATH_STYLE_ACCESS = "contract.s3.path.style.access";

  private ContractS3Config() {}

  public static ConfigDef define(ConfigDef def) {
    AwsCredentialsConfig.CONTRACT_STORE.define(def, "Contract store", 10);
    return def.define(
            ENDPOINT,
            Type.STRING,
            "",
            ContractS3Config::checkEndpoint,
            Importance.LOW,
            "Endpoint override for an S3-compatible server holding the contracts, e.g."
                + " http://127.0.0.1:9000. Empty: SKIPPR_S3_ENDPOINT, else AWS.")
        .define(
            REGION,
            Type.STRING,
            "",
            ContractS3Config::checkRegion,
            Importance.LOW,
            "AWS region of the contracts' bucket. Empty: SKIPPR_S3_REGION, AWS_REGION,"
                + " AWS_DEFAULT_REGION, then the SDK's chain; us-east-1 with an endpoint override.")
        .define(
            PATH_STYLE_ACCESS,
            Type.BOOLEAN,
            null,
            Importance.LOW,
            "Address objects as endpoint/bucket/key. Unset: SKIPPR_S3_PATH_STYLE_ACCESS, else true"
                + " exactly when an endpoint override is set.");
  }

  /** {@code base} (from the location and the environment) with the keys that are set. */
  static S3ContractSettings apply(AbstractConfig config, S3ContractSettings base) {
    S3ContractSettings settings = base;
    String endpoint = config.getString(ENDPOINT).trim();
    if (!endpoint.isEmpty()) {
      settings = settings.withEndpoint(URI.create(endpoint));
    }
    String region = config.getString(REGION).trim();
    if (!region.isEmpty()) {
      settings = settings.withRegion(region);
    }
    Boolean pathStyle = config.getBoolean(PATH_STYLE_ACCESS);
    settings = pathStyle == null ? settings : settings.withPathStyle(pathStyle);
    return new S3ContractSettings(
        settings.bucket(),
        settings.prefix(),
        AwsCredentialsConfig.CONTRACT_STORE.apply(settings.aws(), ConfigLookup.of(config)));
  }

  private static void checkEndpoint(String name, Object value) {
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return;
    }
    try {
      AwsSettings.parseEndpoint(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(name, value, "expected empty or http(s)://host[:port]");
    }
  }

  private static void checkRegion(String name, Object value) {
    String text = value == null ? "" : value.toString().trim();
    if (!text.isEmpty() && !AwsSettings.isRegionName(text)) {
      throw new ConfigException(name, value, "expected empty or a region name such as eu-west-1");
    }
  }
}
