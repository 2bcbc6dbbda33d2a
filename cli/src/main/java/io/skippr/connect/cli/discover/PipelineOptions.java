package io.skippr.connect.cli.discover;

import io.skippr.connect.schema.ContractStorage;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.s3.S3ContractSettings;
import io.skippr.connect.schema.s3.S3ContractStore;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options shared by {@code discover} and {@code schema}, and where they lead. */
public final class PipelineOptions {
  /** Environment variable naming the bucket of S3 contract storage. */
  public static final String S3_BUCKET_ENV = S3ContractSettings.BUCKET_ENV;

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
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      description =
          "Where contracts are kept: a directory or an S3 location (default: s3://$SKIPPR_S3_BUCKET"
              + "/$SKIPPR_S3_PREFIX when SKIPPR_S3_BUCKET is set, else $DATA_DIR, else ./data).")
  String dataDir;

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
   * Where contracts are kept: {@code --data-dir} (a directory or an {@code s3://} location), else
   * the bucket in {@value #S3_BUCKET_ENV}, else {@code DATA_DIR}, else {@code ./data}. S3 settings
   * come from the {@code SKIPPR_S3_*} and {@code AWS_*} variables (see {@link S3ContractSettings}).
   *
   * @throws DiscoveryException when the S3 settings are wrong
   */
  ContractStorage store(Map<String, String> env, Path workingDir) {
    try {
      if (dataDir != null && !dataDir.isBlank()) {
        return S3ContractSettings.isS3Uri(dataDir)
            ? S3ContractStore.open(S3ContractSettings.forLocation(dataDir, env))
            : new ContractStore(workingDir.resolve(dataDir));
      }
      var s3 = S3ContractSettings.fromEnvironment(env);
      if (s3.isPresent()) {
        return S3ContractStore.open(s3.get());
      }
    } catch (IllegalArgumentException e) {
      throw new DiscoveryException(e.getMessage(), e);
    }
    String fromEnv = env.get("DATA_DIR");
    return new ContractStore(
        fromEnv == null || fromEnv.isBlank() ? workingDir.resolve("data") : Path.of(fromEnv));
  }
}
