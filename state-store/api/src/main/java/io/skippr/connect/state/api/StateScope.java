package io.skippr.connect.state.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The pipeline a row belongs to, stored as the partition key {@code
 * {tenant}#{workspace}#{pipeline}}.
 *
 * <p>Parts may not contain {@code #} (the separator) or control characters, so the encoded form is
 * unambiguous and two pipelines never share a scope.
 */
public record StateScope(String tenant, String workspace, String pipeline) {
  public static final String DEFAULT_TENANT = "default";
  public static final String DEFAULT_WORKSPACE = "default";
  private static final int MAX_ENCODED_BYTES = 2048;

  public StateScope {
    checkPart("tenant", tenant);
    checkPart("workspace", workspace);
    checkPart("pipeline", pipeline);
    int bytes = (tenant + '#' + workspace + '#' + pipeline).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_ENCODED_BYTES) {
      throw new IllegalArgumentException(
          "state scope is " + bytes + " bytes long; at most " + MAX_ENCODED_BYTES + " are allowed");
    }
  }

  /** The scope of a pipeline in the default tenant and workspace. */
  public static StateScope ofPipeline(String pipeline) {
    return new StateScope(DEFAULT_TENANT, DEFAULT_WORKSPACE, pipeline);
  }

  /** Parses {@code tenant#workspace#pipeline}. */
  public static StateScope parse(String encoded) {
    String[] parts = Objects.requireNonNull(encoded, "scope").split("#", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException(
          "state scope '" + encoded + "' is not of the form tenant#workspace#pipeline");
    }
    return new StateScope(parts[0], parts[1], parts[2]);
  }

  /** The partition key: {@code tenant#workspace#pipeline}. */
  public String encoded() {
    return tenant + '#' + workspace + '#' + pipeline;
  }

  @Override
  public String toString() {
    return encoded();
  }

  private static void checkPart(String name, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("state scope " + name + " must not be empty");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '#' || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            "state scope " + name + " '" + value + "' must not contain '#' or control characters");
      }
    }
  }
}
