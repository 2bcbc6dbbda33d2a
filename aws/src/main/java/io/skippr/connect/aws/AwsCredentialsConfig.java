package io.skippr.connect.aws;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The credential keys of one AWS client, in Confluent's S3 sink names: the provider class (the
 * SDK's default chain, or assume-role; Confluent's class names are accepted as aliases), the role
 * to assume ({@code sts.role.arn}, {@code sts.role.session.name}, {@code sts.role.external.id}) and
 * an STS endpoint override. The lake sink uses them as they are ({@link #S3}); the DynamoDB state
 * store under {@code store.dynamodb.} ({@link #DYNAMODB_STORE}).
 */
public final class AwsCredentialsConfig {
  /** The SDK's default chain: environment, profile, web identity (IRSA), container, instance. */
  public static final String DEFAULT_CHAIN =
      "software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider";

  /** Assume {@code sts.role.arn} with the base credentials. */
  public static final String ASSUME_ROLE =
      "software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider";

  /** Confluent's S3 sink name of {@link #ASSUME_ROLE}. */
  public static final String CONFLUENT_ASSUME_ROLE =
      "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider";

  /** Confluent's S3 sink name (AWS SDK v1) of {@link #DEFAULT_CHAIN}. */
  public static final String CONFLUENT_DEFAULT_CHAIN =
      "com.amazonaws.auth.DefaultAWSCredentialsProviderChain";

  public static final String DEFAULT_SESSION_NAME = "skippr-connect";

  /** The lake sink's keys. */
  public static final AwsCredentialsConfig S3 =
      new AwsCredentialsConfig("s3.credentials.provider.class", "");

  /** The DynamoDB state store's keys. */
  public static final AwsCredentialsConfig DYNAMODB_STORE =
      new AwsCredentialsConfig("store.dynamodb.credentials.provider.class", "store.dynamodb.");

  /** The contract store's keys (contracts read from S3 by the validating transform). */
  public static final AwsCredentialsConfig CONTRACT_STORE =
      new AwsCredentialsConfig("contract.s3.credentials.provider.class", "contract.s3.");

  private static final Set<String> ASSUME_ROLE_NAMES = Set.of(ASSUME_ROLE, CONFLUENT_ASSUME_ROLE);
  private static final Set<String> CHAIN_NAMES = Set.of(DEFAULT_CHAIN, CONFLUENT_DEFAULT_CHAIN);
  private static final Pattern ROLE_ARN =
      Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");
  private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");
  private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");

  private final String providerClass;
  private final String roleArn;
  private final String sessionName;
  private final String externalId;
  private final String stsEndpoint;

  /**
   * @param providerClassKey the key of the provider class
   * @param stsPrefix what precedes {@code sts.role.arn} and the other STS keys
   */
  public AwsCredentialsConfig(String providerClassKey, String stsPrefix) {
    this.providerClass = providerClassKey;
    this.roleArn = stsPrefix + "sts.role.arn";
    this.sessionName = stsPrefix + "sts.role.session.name";
    this.externalId = stsPrefix + "sts.role.external.id";
    this.stsEndpoint = stsPrefix + "sts.endpoint";
  }

  public String providerClassKey() {
    return providerClass;
  }

  public String roleArnKey() {
    return roleArn;
  }

  public String sessionNameKey() {
    return sessionName;
  }

  public String externalIdKey() {
    return externalId;
  }

  public String stsEndpointKey() {
    return stsEndpoint;
  }

  /** Adds the keys to {@code def} in {@code group} from position {@code order} + 1. */
  public ConfigDef define(ConfigDef def, String group, int order) {
    def.define(
            providerClass,
            Type.STRING,
            DEFAULT_CHAIN,
            ConfigDef.LambdaValidator.with(this::checkProviderClass, () -> "one of " + names()),
            Importance.MEDIUM,
            "Where the credentials come from. "
                + DEFAULT_CHAIN
                + " (default): static keys if set, else the SDK's default chain (environment,"
                + " profile, web identity as with EKS IRSA, container and instance roles); "
                + ASSUME_ROLE
                + ": assume "
                + roleArn
                + " with those credentials. Confluent's "
                + CONFLUENT_ASSUME_ROLE
                + " and "
                + CONFLUENT_DEFAULT_CHAIN
                + " are accepted as aliases. Setting "
                + roleArn
                + " alone also assumes the role.",
            group,
            ++order,
            Width.LONG,
            "Credentials provider")
        .define(
            roleArn,
            Type.STRING,
            "",
            optional(
                ROLE_ARN, "an IAM role ARN such as arn:aws:iam::123456789012:role/lake-writer"),
            Importance.MEDIUM,
            "The IAM role to assume with STS on top of the base credentials (static keys, web"
                + " identity or the default chain). Its temporary credentials are fetched again"
                + " between 5 minutes and 1 minute before they expire. Empty: no role is assumed.",
            group,
            ++order,
            Width.LONG,
            "Role to assume")
        .define(
            sessionName,
            Type.STRING,
            DEFAULT_SESSION_NAME,
            optional(SESSION_NAME, "2-64 characters of letters, digits and +=,.@_-"),
            Importance.LOW,
            "The role session name (shown in CloudTrail) when assuming " + roleArn + ".",
            group,
            ++order,
            Width.MEDIUM,
            "Role session name");
    return defineExternalIdAndEndpoint(def, group, order);
  }

  private ConfigDef defineExternalIdAndEndpoint(ConfigDef def, String group, int order) {
    return def.define(
            externalId,
            Type.STRING,
            "",
            optional(EXTERNAL_ID, "2-1224 characters of letters, digits and +=,.@:/_-"),
            Importance.LOW,
            "The external id the role's trust policy requires, when assuming " + roleArn + ".",
            group,
            order + 1,
            Width.MEDIUM,
            "Role external id")
        .define(
            stsEndpoint,
            Type.STRING,
            "",
            ConfigDef.LambdaValidator.with(
                AwsCredentialsConfig::checkEndpoint, () -> "empty, or http(s)://host[:port]"),
            Importance.LOW,
            "Endpoint override for STS (assume-role and web identity), e.g. a VPC endpoint"
                + " https://sts.eu-west-1.amazonaws.com. Empty: AWS's STS endpoint of the region.",
            group,
            order + 2,
            Width.LONG,
            "STS endpoint");
  }

  /** Problems of the combination by key; empty when it is sound. */
  public Map<String, String> problems(ConfigLookup values) {
    Map<String, String> problems = new LinkedHashMap<>();
    boolean assume = values.get(roleArn) != null;
    String provider = values.get(providerClass);
    if (provider != null && ASSUME_ROLE_NAMES.contains(provider) && !assume) {
      problems.put(
          roleArn,
          providerClass + "=" + provider + " assumes a role: set " + roleArn + " to its ARN.");
    }
    if (values.get(externalId) != null && !assume) {
      problems.put(externalId, externalId + " is used only when assuming " + roleArn + ".");
    }
    return problems;
  }

  /**
   * {@code base} with the role to assume and the STS endpoint of these keys.
   *
   * @throws ConfigException naming the key when the combination is wrong
   */
  public AwsSettings apply(AwsSettings base, ConfigLookup values) {
    problems(values)
        .forEach(
            (key, problem) -> {
              throw new ConfigException(key, values.get(key), problem);
            });
    String arn = values.get(roleArn);
    String session = values.get(sessionName);
    String endpoint = values.get(stsEndpoint);
    return base.withAssumeRole(
            arn == null
                ? null
                : new AssumeRole(
                    arn, session == null ? DEFAULT_SESSION_NAME : session, values.get(externalId)))
        .withStsEndpoint(endpoint == null ? null : AwsSettings.parseEndpoint(endpoint));
  }

  private static String names() {
    return DEFAULT_CHAIN
        + ", "
        + ASSUME_ROLE
        + " (aliases "
        + CONFLUENT_DEFAULT_CHAIN
        + ", "
        + CONFLUENT_ASSUME_ROLE
        + ")";
  }

  private void checkProviderClass(String key, Object value) {
    String text = value == null ? "" : value.toString().strip();
    if (!text.isEmpty() && !ASSUME_ROLE_NAMES.contains(text) && !CHAIN_NAMES.contains(text)) {
      throw new ConfigException(key, value, "expected one of " + names());
    }
  }

  private static ConfigDef.Validator optional(Pattern pattern, String expected) {
    return ConfigDef.LambdaValidator.with(
        (key, value) -> {
          String text = value == null ? "" : value.toString().strip();
          if (!text.isEmpty() && !pattern.matcher(text).matches()) {
            throw new ConfigException(key, value, "expected " + expected);
          }
        },
        () -> "empty, or " + expected);
  }

  private static void checkEndpoint(String key, Object value) {
    String text = value == null ? "" : value.toString().strip();
    if (text.isEmpty()) {
      return;
    }
    try {
      AwsSettings.parseEndpoint(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, value, "expected http(s)://host[:port]");
    }
  }
}
