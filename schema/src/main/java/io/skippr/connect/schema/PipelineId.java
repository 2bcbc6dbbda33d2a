package io.skippr.connect.schema;

import java.util.Objects;

/**
 * Identifies a pipeline: {@code {tenant}/{workspace}/{pipeline}}. Each part is a single path
 * segment: non-empty, not {@code .} or {@code ..}, without {@code /}, {@code \}, NUL or control
 * characters, at most 255 bytes.
 */
public record PipelineId(String tenant, String workspace, String pipeline) {
  /** The default tenant and workspace name. */
  public static final String DEFAULT = "default";

  public PipelineId {
    checkSegment("tenant", tenant);
    checkSegment("workspace", workspace);
    checkSegment("pipeline", pipeline);
  }

  /** {@code default/default/<pipeline>}. */
  public static PipelineId of(String pipeline) {
    return new PipelineId(DEFAULT, DEFAULT, pipeline);
  }

  @Override
  public String toString() {
    return tenant + "/" + workspace + "/" + pipeline;
  }

  private static void checkSegment(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty() || value.equals(".") || value.equals("..")) {
      throw new IllegalArgumentException(what + " must be a name, got \"" + value + "\"");
    }
    if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
      throw new IllegalArgumentException(what + " is longer than 255 bytes");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) {
        throw new IllegalArgumentException(
            what
                + " \""
                + value.replaceAll("\\p{Cntrl}", "?")
                + "\" contains '/', '\\' or a control character");
      }
    }
  }
}
