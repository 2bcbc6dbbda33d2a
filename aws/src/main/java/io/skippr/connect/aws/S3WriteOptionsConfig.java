package io.skippr.connect.aws;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * The encryption and ACL keys of a lake on S3, in Confluent's S3 sink names ({@code s3.ssea.name}
 * is accepted as Confluent's name of {@value #SSE_ALGORITHM}), read into {@link S3WriteOptions}.
 */
public final class S3WriteOptionsConfig {
  public static final String SSE_ALGORITHM = "s3.sse.algorithm";

  /** Confluent's S3 sink name of {@link #SSE_ALGORITHM}. */
  public static final String SSEA_NAME = "s3.ssea.name";

  public static final String SSE_KMS_KEY_ID = "s3.sse.kms.key.id";
  public static final String SSE_CUSTOMER_ALGORITHM = "s3.sse.customer.algorithm";
  public static final String SSE_CUSTOMER_KEY = "s3.sse.customer.key";
  public static final String ACL_CANNED = "s3.acl.canned";

  private static final List<String> ALGORITHMS =
      List.of(
          ServerSideEncryption.AES256.toString(),
          ServerSideEncryption.AWS_KMS.toString(),
          ServerSideEncryption.AWS_KMS_DSSE.toString());
  private static final Set<String> KMS = Set.of("aws:kms", "aws:kms:dsse");

  private S3WriteOptionsConfig() {}

  /** Adds the keys to {@code def} in {@code group} from position {@code order} + 1. */
  public static ConfigDef define(ConfigDef def, String group, int order) {
    def.define(
            SSE_ALGORITHM,
            Type.STRING,
            "",
            oneOf(ALGORITHMS),
            Importance.MEDIUM,
            "Server-side encryption of every object the lake writes (files, log entries, merges):"
                + " AES256 (SSE-S3), aws:kms (SSE-KMS) or aws:kms:dsse (DSSE-KMS). Empty: the"
                + " bucket's default encryption. For SSE-C set "
                + SSE_CUSTOMER_KEY
                + " instead.",
            group,
            ++order,
            Width.SHORT,
            "SSE algorithm")
        .define(
            SSEA_NAME,
            Type.STRING,
            "",
            oneOf(ALGORITHMS),
            Importance.LOW,
            "Confluent's S3 sink name of "
                + SSE_ALGORITHM
                + ", read when that is empty. As in Confluent's sink, AES256 with "
                + SSE_CUSTOMER_KEY
                + " set means SSE-C.",
            group,
            ++order,
            Width.SHORT,
            "SSE algorithm (Confluent name)")
        .define(
            SSE_KMS_KEY_ID,
            Type.STRING,
            "",
            null,
            Importance.MEDIUM,
            "The KMS key (id, ARN or alias ARN) of "
                + SSE_ALGORITHM
                + "=aws:kms or aws:kms:dsse. Empty: the account's AWS managed key for S3.",
            group,
            ++order,
            Width.LONG,
            "SSE KMS key id");
    return defineCustomerKeyAndAcl(def, group, order);
  }

  private static ConfigDef defineCustomerKeyAndAcl(ConfigDef def, String group, int order) {
    return def.define(
            SSE_CUSTOMER_ALGORITHM,
            Type.STRING,
            S3WriteOptions.CUSTOMER_ALGORITHM,
            oneOf(List.of(S3WriteOptions.CUSTOMER_ALGORITHM)),
            Importance.LOW,
            "The SSE-C algorithm; S3 knows only AES256.",
            group,
            order + 1,
            Width.SHORT,
            "SSE-C algorithm")
        .define(
            SSE_CUSTOMER_KEY,
            Type.PASSWORD,
            null,
            ConfigDef.LambdaValidator.with(
                S3WriteOptionsConfig::checkCustomerKey,
                () -> "unset or empty, or base64 of 32 bytes"),
            Importance.MEDIUM,
            "SSE-C: the base64 of a 256-bit AES key. Every write, read and copy of the lake's"
                + " objects sends it (the sink, compaction, recovery, skippr audit, sql and"
                + " compact); an object cannot be read without it. Never logged.",
            group,
            order + 2,
            Width.LONG,
            "SSE-C key")
        .define(
            ACL_CANNED,
            Type.STRING,
            "",
            oneOf(cannedAcls()),
            Importance.LOW,
            "The canned ACL of every object the lake writes, e.g. bucket-owner-full-control."
                + " Empty: none (buckets with ACLs disabled refuse any but"
                + " bucket-owner-full-control).",
            group,
            order + 3,
            Width.MEDIUM,
            "Canned ACL");
  }

  /** Problems of the combination by key; empty when it is sound. */
  public static Map<String, String> problems(ConfigLookup values) {
    Map<String, String> problems = new LinkedHashMap<>();
    String algorithm = values.get(SSE_ALGORITHM);
    String confluent = values.get(SSEA_NAME);
    boolean customer = values.get(SSE_CUSTOMER_KEY) != null;
    if (customer && algorithm != null) {
      problems.put(
          SSE_CUSTOMER_KEY,
          "SSE-C replaces "
              + SSE_ALGORITHM
              + "="
              + algorithm
              + ": set one of "
              + SSE_ALGORITHM
              + " and "
              + SSE_CUSTOMER_KEY
              + ".");
    } else if (customer && confluent != null && !confluent.equals("AES256")) {
      problems.put(
          SSE_CUSTOMER_KEY,
          "SSE-C is AES256: " + SSEA_NAME + "=" + confluent + " cannot go with it.");
    }
    String effective = algorithm != null ? algorithm : customer ? null : confluent;
    if (values.get(SSE_KMS_KEY_ID) != null && (effective == null || !KMS.contains(effective))) {
      problems.put(
          SSE_KMS_KEY_ID,
          SSE_KMS_KEY_ID
              + " is the key of SSE-KMS: set "
              + SSE_ALGORITHM
              + "=aws:kms (or aws:kms:dsse) with it.");
    }
    return problems;
  }

  /**
   * The write options of these keys.
   *
   * @throws ConfigException naming the key when the combination is wrong
   */
  public static S3WriteOptions from(ConfigLookup values) {
    problems(values)
        .forEach(
            (key, problem) -> {
              throw new ConfigException(key, "[hidden]", problem);
            });
    String customerKey = values.get(SSE_CUSTOMER_KEY);
    String algorithm = values.get(SSE_ALGORITHM);
    if (algorithm == null && customerKey == null) {
      algorithm = values.get(SSEA_NAME);
    }
    String acl = values.get(ACL_CANNED);
    return new S3WriteOptions(
        algorithm == null ? null : ServerSideEncryption.fromValue(algorithm),
        values.get(SSE_KMS_KEY_ID),
        customerKey,
        acl == null ? null : ObjectCannedACL.fromValue(acl));
  }

  private static List<String> cannedAcls() {
    return Arrays.stream(ObjectCannedACL.values())
        .filter(a -> a != ObjectCannedACL.UNKNOWN_TO_SDK_VERSION)
        .map(ObjectCannedACL::toString)
        .toList();
  }

  private static ConfigDef.Validator oneOf(List<String> values) {
    return ConfigDef.LambdaValidator.with(
        (key, value) -> {
          String text = value == null ? "" : value.toString().strip();
          if (!text.isEmpty() && !values.contains(text)) {
            throw new ConfigException(key, value, "expected empty or one of " + values);
          }
        },
        () -> "empty, or one of " + values);
  }

  private static void checkCustomerKey(String key, Object value) {
    if (value instanceof Password password
        && !password.value().isBlank()
        && S3WriteOptions.keyBytes(password.value()) == null) {
      // Never echo the value: it is (close to) a secret key.
      throw new ConfigException(
          key, "[hidden]", "must be the base64 of a 256-bit (32-byte) AES key");
    }
  }
}
