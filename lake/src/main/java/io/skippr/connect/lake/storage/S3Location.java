package io.skippr.connect.lake.storage;

import io.skippr.connect.aws.AwsSettings;

/**
 * A bucket and a key prefix inside it: where an S3 lake lives.
 *
 * @param bucket a valid S3 bucket name
 * @param prefix keys' common prefix without leading or trailing {@code /}, empty for the whole
 *     bucket
 */
public record S3Location(String bucket, String prefix) {
  /** The URI scheme of S3 lakes. */
  public static final String SCHEME = "s3://";

  // S3's rules for new buckets: 3-63 of a-z 0-9 . -, starting and ending with a letter or digit.

  public S3Location {
    if (!AwsSettings.isBucketName(bucket)) {
      throw new IllegalArgumentException(
          "'"
              + bucket
              + "' is not a valid S3 bucket name (3-63 characters: lowercase letters, digits, '.'"
              + " and '-', starting and ending with a letter or digit)");
    }
    prefix = StorageKeys.trimSlashes(prefix);
    if (!prefix.isEmpty()) {
      StorageKeys.check(prefix);
    }
  }

  /** True for {@code s3://…} (the scheme in any case). */
  public static boolean isS3Uri(String location) {
    return location.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
  }

  /**
   * Parses {@code s3://bucket} or {@code s3://bucket/prefix/…}.
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  public static S3Location parse(String uri) {
    if (!isS3Uri(uri)) {
      throw new IllegalArgumentException("not an s3:// URI: " + uri);
    }
    String rest = uri.substring(SCHEME.length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String prefix = slash < 0 ? "" : rest.substring(slash + 1);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket in " + uri + "; use s3://bucket/prefix");
    }
    return new S3Location(bucket, prefix);
  }

  /** The object key of a lake key. */
  public String objectKey(String key) {
    return prefix.isEmpty() ? key : prefix + "/" + key;
  }

  /** {@code s3://bucket/prefix/}: where keys are resolved, for messages. */
  @Override
  public String toString() {
    return SCHEME + bucket + "/" + (prefix.isEmpty() ? "" : prefix + "/");
  }
}
