package io.skippr.connect.lake.write;

import io.skippr.connect.common.ConfigProblems;
import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.maintenance.RetentionConfig;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import io.skippr.connect.lake.partition.PartitioningConfig;
import io.skippr.connect.lake.partition.PathTimes;
import io.skippr.connect.lake.publish.PublishConfig;
import io.skippr.connect.lake.state.MirrorConfig;
import io.skippr.connect.lake.storage.StorageConfig;
import io.skippr.connect.lake.storage.WriteConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The lake sink's configuration, composed of one fragment per concern: storage, rotation, format
 * and partitioning.
 */
public final class LakeSinkConfig extends AbstractConfig {
  /** Connect's framework key for error tolerance; read here, defined by the worker. */
  public static final String ERRORS_TOLERANCE = "errors.tolerance";

  private static final ConfigDef DEF = configDef();

  private final StorageConfig storage;
  private final RotationConfig rotation;
  private final FormatConfig format;
  private final PartitioningConfig partitioning;

  /**
   * Parses and checks the connector's properties.
   *
   * @throws org.apache.kafka.common.config.ConfigException naming the first invalid key
   */
  public LakeSinkConfig(Map<String, String> props) {
    super(DEF, props);
    this.storage = StorageConfig.from(this);
    this.rotation = RotationConfig.from(this);
    WritePolicyConfig.Settings policy = WritePolicyConfig.from(this);
    this.format =
        policy.policy() == WritePolicyConfig.Policy.MERGE_BY_KEY
            ? FormatConfig.from(this).deletingByKey(policy.keyFields())
            : FormatConfig.from(this);
    this.partitioning = PartitioningConfig.from(this);
  }

  /** Every key of the lake sink. */
  public static ConfigDef configDef() {
    ConfigDef def = new ConfigDef();
    StorageConfig.define(def);
    WriteConfig.define(def);
    RotationConfig.define(def);
    FormatConfig.define(def);
    PartitioningConfig.define(def);
    MirrorConfig.define(def);
    GenerationConfig.define(def);
    PublishConfig.define(def);
    CompactionConfig.define(def);
    WritePolicyConfig.define(def);
    RetentionConfig.define(def);
    return def;
  }

  /**
   * Checks each key, then the combinations, attaching each problem to the key to change: what the
   * connector's {@code validate} and a {@code sync} run report.
   */
  public static Config validate(Map<String, String> props) {
    ConfigDef def = configDef();
    return ConfigProblems.attach(
        new Config(def.validate(props)), CrossFieldChecks.problems(def, props), props);
  }

  /** What the sink does with offsets its lake cannot account for. */
  public GenerationConfig.Behavior onDiscontinuity() {
    return GenerationConfig.behavior(this);
  }

  /** Whether progress is mirrored into the state store. */
  public MirrorConfig.Mode mirrorMode() {
    return MirrorConfig.mode(this);
  }

  /** How a table's rows are kept: appended, merged by key, replaced per partition path. */
  public WritePolicyConfig.Settings writePolicy() {
    return WritePolicyConfig.from(this);
  }

  /** How long time-partitioned tables keep their partition paths. */
  public RetentionConfig.Settings retention() {
    return RetentionConfig.from(this);
  }

  /** What the maintenance of the connector's tables does. */
  public LakeMaintenance.Settings maintenance() {
    return new LakeMaintenance.Settings(
        compaction(), writePolicy(), retention(), PathTimes.of(partitioning).orElse(null), format);
  }

  /** When and how small files are merged. */
  public CompactionConfig.Settings compaction() {
    return CompactionConfig.from(this);
  }

  public StorageConfig storage() {
    return storage;
  }

  public RotationConfig rotation() {
    return rotation;
  }

  public FormatConfig format() {
    return format;
  }

  public PartitioningConfig partitioning() {
    return partitioning;
  }

  /** True when Connect's {@code errors.tolerance} is {@code all}. */
  public boolean toleratesErrors() {
    Object value = originals().get(ERRORS_TOLERANCE);
    return value != null && value.toString().trim().equalsIgnoreCase("all");
  }

  /**
   * Fingerprint of every setting that shapes file names or contents (storage, format,
   * partitioning). A pending unit planned under another fingerprint is abandoned, not replayed.
   * Rotation settings are left out (a replay ignores triggers anyway), and so is how many files are
   * written at once.
   */
  public String configFingerprint() {
    ConfigDef shaping = new ConfigDef();
    StorageConfig.define(shaping);
    FormatConfig.define(shaping);
    PartitioningConfig.define(shaping);
    StringBuilder canonical = new StringBuilder();
    for (String key : new TreeSet<>(shaping.names())) {
      canonical.append(key).append('=').append(values().get(key)).append('\n');
    }
    return Sha256.hex(canonical.toString()).substring(0, 24);
  }

  /** The writer's settings; {@code owner} names the claiming task in the logs' epoch entries. */
  public WriterSettings writerSettings(String owner) {
    return new WriterSettings(
        rotation,
        configFingerprint(),
        owner,
        toleratesErrors(),
        WriterSettings.DEFAULT_CHECKPOINT_INTERVAL,
        WriteConfig.writeConcurrency(this),
        WriteConfig.writeAsync(this),
        GenerationConfig.behavior(this),
        writePolicy(),
        compaction().graceMs());
  }

  /** A readable, unique owner name: connector name, host and a random instance id. */
  public String ownerName() {
    Object name = originals().get("name");
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return (name == null ? "lake-sink" : name) + "@" + host + "/" + UUID.randomUUID();
  }
}
