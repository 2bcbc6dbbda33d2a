package io.skippr.connect.transforms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.common.ProcessEnvironment;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStorage;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.s3.S3ContractSettings;
import io.skippr.connect.schema.s3.S3ContractStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * Where a transformation reads schema contracts from: a file ({@value #PATH}) or a pipeline's saved
 * contracts ({@value #PIPELINE} under {@value #DATA_DIR}, a directory or an S3 location, see {@link
 * ContractS3Config}), as {@code skippr discover} writes them. Contracts are read once, when the
 * transformation is configured.
 */
public final class ContractConfig {
  public static final String PATH = "contract.path";
  public static final String PIPELINE = "contract.pipeline";
  public static final String DATA_DIR = "contract.data.dir";
  public static final String NAMESPACE = "contract.namespace";

  /** Environment variable naming the data directory when {@value #DATA_DIR} is not set. */
  public static final String DATA_DIR_ENV = "DATA_DIR";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ContractConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return ContractS3Config.define(defineSources(def));
  }

  private static ConfigDef defineSources(ConfigDef def) {
    return def.define(
            PATH,
            Type.STRING,
            "",
            Importance.HIGH,
            "A contract file: a pipeline's metadata.json as 'skippr discover' saves it (one"
                + " contract per namespace), or a single contract JSON object. Not together with "
                + PIPELINE
                + ".")
        .define(
            PIPELINE,
            Type.STRING,
            "",
            Importance.HIGH,
            "Read the contracts 'skippr discover' saved for this pipeline: '{tenant}/{workspace}/"
                + "{pipeline}', or just '{pipeline}' for default/default/{pipeline}.")
        .define(
            DATA_DIR,
            Type.STRING,
            "",
            ContractConfig::checkDataDir,
            Importance.LOW,
            "Where the saved pipeline contracts for "
                + PIPELINE
                + " are: a directory, or s3://bucket/prefix. Empty means s3://$SKIPPR_S3_BUCKET/"
                + "$SKIPPR_S3_PREFIX when the environment variable SKIPPR_S3_BUCKET is set, else"
                + " the environment variable DATA_DIR, else ./data.")
        .define(
            NAMESPACE,
            Type.STRING,
            "",
            Importance.MEDIUM,
            "Apply this contract to every record; empty means the contract whose namespace is the"
                + " record's topic (or, with namespace.fields, the topic of its namespace).");
  }

  /** The configured contracts, read now; {@link Contracts#none()} when no source is set. */
  public static Contracts from(AbstractConfig config) {
    return from(config, ProcessEnvironment.variables());
  }

  static Contracts from(AbstractConfig config, Map<String, String> env) {
    String path = config.getString(PATH).trim();
    String pipeline = config.getString(PIPELINE).trim();
    String fixed = config.getString(NAMESPACE).trim();
    if (!path.isEmpty() && !pipeline.isEmpty()) {
      throw new ConfigException("set " + PATH + " or " + PIPELINE + ", not both");
    }
    List<Contract> contracts;
    String origin;
    if (!path.isEmpty()) {
      origin = path;
      contracts = readFile(Paths.get(path));
    } else if (!pipeline.isEmpty()) {
      PipelineId id = pipelineId(pipeline);
      try (ContractStorage store = storage(config, env)) {
        origin = store.location(id);
        contracts = loadSaved(store, id, origin);
      }
    } else if (!fixed.isEmpty()) {
      throw new ConfigException(NAMESPACE + " needs " + PATH + " or " + PIPELINE);
    } else {
      return Contracts.none();
    }
    return new Contracts(contracts, fixed.isEmpty() ? null : fixed, origin);
  }

  private static PipelineId pipelineId(String text) {
    String[] parts = text.split("/", -1);
    try {
      return switch (parts.length) {
        case 1 -> PipelineId.of(parts[0]);
        case 3 -> new PipelineId(parts[0], parts[1], parts[2]);
        default ->
            throw new IllegalArgumentException(
                "expected {tenant}/{workspace}/{pipeline} or {pipeline}");
      };
    } catch (IllegalArgumentException e) {
      throw new ConfigException(PIPELINE, text, e.getMessage());
    }
  }

  /**
   * The configured storage: {@value #DATA_DIR}, else SKIPPR_S3_BUCKET, else DATA_DIR, else ./data.
   */
  static ContractStorage storage(AbstractConfig config, Map<String, String> env) {
    String configured = config.getString(DATA_DIR).trim();
    try {
      Optional<S3ContractSettings> s3 =
          configured.isEmpty()
              ? S3ContractSettings.fromEnvironment(env)
              : S3ContractSettings.isS3Uri(configured)
                  ? Optional.of(S3ContractSettings.forLocation(configured, env))
                  : Optional.empty();
      if (s3.isPresent()) {
        return S3ContractStore.open(ContractS3Config.apply(config, s3.get()));
      }
    } catch (IllegalArgumentException e) {
      throw new ConfigException(DATA_DIR, configured, e.getMessage());
    }
    if (!configured.isEmpty()) {
      return new ContractStore(Paths.get(configured));
    }
    String fromEnv = env.get(DATA_DIR_ENV);
    return new ContractStore(Paths.get(fromEnv == null || fromEnv.isBlank() ? "data" : fromEnv));
  }

  private static void checkDataDir(String name, Object value) {
    String text = value == null ? "" : value.toString().trim();
    if (S3ContractSettings.isS3Uri(text)) {
      try {
        S3ContractSettings.forLocation(text, Map.of());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }
  }

  private static List<Contract> loadSaved(ContractStorage store, PipelineId id, String origin) {
    List<Contract> saved;
    try {
      saved = store.load(id);
    } catch (RuntimeException e) {
      throw new ConfigException(PIPELINE, id.toString(), e.getMessage());
    }
    if (saved.isEmpty()) {
      throw new ConfigException(
          PIPELINE,
          id.toString(),
          "no contracts saved at " + origin + " (run 'skippr discover' for the pipeline first)");
    }
    return saved;
  }

  /** Reads a metadata.json ({@code {"contracts": [...]}}) or a single contract object. */
  static List<Contract> readFile(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new ConfigException(PATH, file.toString(), "no such file");
    } catch (IOException e) {
      throw new ConfigException(PATH, file.toString(), "cannot read: " + e.getMessage());
    }
    try {
      if (root != null && root.has("contracts")) {
        List<Contract> contracts = new ArrayList<>();
        for (JsonNode node : root.get("contracts")) {
          contracts.add(Contract.fromJsonNode(node));
        }
        if (contracts.isEmpty()) {
          throw new IllegalArgumentException("the file holds no contracts");
        }
        return contracts;
      }
      return List.of(Contract.fromJsonNode(root));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(PATH, file.toString(), e.getMessage());
    }
  }
}
