package io.skippr.connect.cli.discover;

import io.skippr.connect.schema.ContractStore;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options shared by {@code discover} and {@code schema}, and where they lead. */
public final class PipelineOptions {
  /** Environment variable of S3 contract storage (not available yet). */
  public static final String S3_BUCKET_ENV = "SKIPPR_S3_BUCKET";

  /** How results are printed. */
  public enum Output {
    text,
    json
  }

  @Option(
      names = "--pipeline",
      required = true,
      paramLabel = "NAME",
      description = "The pipeline, as named in skippr.yml.")
  String pipeline;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The pipelines file (default: $SKIPPR_CONFIG, else ./skippr.yml).")
  Path config;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where contracts are kept (default: $DATA_DIR, else ./data).")
  Path dataDir;

  @Option(
      names = "--output",
      defaultValue = "text",
      paramLabel = "text|json",
      description = "text: a field tree per namespace; json: the contract document.")
  Output output;

  /** The pipeline named by {@code --pipeline} in the located skippr.yml. */
  PipelineSpec spec(Map<String, String> env, Path workingDir) {
    return SkipprYaml.read(SkipprYaml.locate(config, env, workingDir)).pipeline(pipeline);
  }

  /**
   * The local contract store.
   *
   * @throws DiscoveryException when S3 storage is asked for, which is not available yet
   */
  ContractStore store(Map<String, String> env, Path workingDir) {
    Path dir = dataDir;
    if (dir == null) {
      String fromEnv = env.get("DATA_DIR");
      dir = fromEnv == null || fromEnv.isBlank() ? workingDir.resolve("data") : Path.of(fromEnv);
    }
    String bucket = env.get(S3_BUCKET_ENV);
    if (bucket != null && !bucket.isBlank()) {
      throw new DiscoveryException(
          S3_BUCKET_ENV
              + " is set, but S3 contract storage is not available yet: unset it to keep"
              + " contracts under "
              + dir);
    }
    return new ContractStore(dir);
  }
}
