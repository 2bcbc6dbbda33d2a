package io.skippr.connect.transforms;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** The settings of {@link ValidateContract}. */
public final class ValidateContractConfig {
  public static final String OUTPUT = "output";
  public static final String MISSING_CONTRACT = "contract.missing";

  private ValidateContractConfig() {}

  /**
   * What {@link ValidateContract} was configured with.
   *
   * @param contracts the contracts (never empty)
   * @param namespaces how a record's contract namespace is named
   * @param conformed true to pass on the value conformed to the contract, false to pass it as is
   * @param failWithoutContract true to fail records whose namespace has no contract
   */
  public record Settings(
      Contracts contracts,
      NamespaceNames namespaces,
      boolean conformed,
      boolean failWithoutContract) {}

  public static ConfigDef define(ConfigDef def) {
    return NamespaceConfig.define(
            ContractConfig.define(def),
            "Look contracts up by namespace rather than by topic: the dotted paths of the value"
                + " fields that name it. Set this (with the same namespace.* settings) when this"
                + " transformation runs before NamespaceRouter. The environment is not read"
                + " here.")
        .define(
            OUTPUT,
            Type.STRING,
            "conformed",
            ConfigDef.ValidString.in("conformed", "unchanged"),
            Importance.MEDIUM,
            "'conformed': a valid record's value becomes a Struct of exactly the contract's"
                + " schema (types converted as validation allows, e.g. ISO strings to timestamps);"
                + " 'unchanged': it passes as it came.")
        .define(
            MISSING_CONTRACT,
            Type.STRING,
            "fail",
            ConfigDef.ValidString.in("fail", "pass"),
            Importance.MEDIUM,
            "A record whose topic or namespace has no contract: 'fail' it, or let it 'pass'"
                + " unchanged.");
  }

  public static Settings from(AbstractConfig config) {
    Contracts contracts = ContractConfig.from(config);
    if (contracts.isEmpty()) {
      throw new ConfigException(
          "ValidateContract needs " + ContractConfig.PATH + " or " + ContractConfig.PIPELINE);
    }
    return new Settings(
        contracts,
        NamespaceConfig.from(config),
        config.getString(OUTPUT).toLowerCase(Locale.ROOT).equals("conformed"),
        config.getString(MISSING_CONTRACT).toLowerCase(Locale.ROOT).equals("fail"));
  }
}
