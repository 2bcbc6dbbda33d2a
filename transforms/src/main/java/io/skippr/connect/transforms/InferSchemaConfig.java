package io.skippr.connect.transforms;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/** The settings of {@link InferSchema}: an optional starting contract and namespace scoping. */
public final class InferSchemaConfig {
  private InferSchemaConfig() {}

  /** What {@link InferSchema} was configured with. */
  public record Settings(Contracts contracts, NamespaceNames namespaces) {}

  public static ConfigDef define(ConfigDef def) {
    return NamespaceConfig.define(
        ContractConfig.define(def),
        "Keep one schema per namespace rather than per topic: the dotted paths of the value fields"
            + " that name it. Set this (with the same namespace.* settings) when this"
            + " transformation runs before NamespaceRouter; leave it empty after it, where each"
            + " namespace already has its own topic. The environment is not read here.");
  }

  public static Settings from(AbstractConfig config) {
    return new Settings(ContractConfig.from(config), NamespaceConfig.from(config));
  }
}
