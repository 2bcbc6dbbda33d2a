package io.skippr.connect.aws;

import java.util.Objects;

/**
 * Static AWS credentials: an access key pair and, for temporary credentials, a session token. They
 * never print: {@link #toString()} says only that they are set.
 *
 * @param sessionToken the session token, or null
 */
public record AwsKeys(String accessKeyId, String secretAccessKey, String sessionToken) {
  public AwsKeys {
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
  }

  @Override
  public String toString() {
    return "(configured)";
  }
}
