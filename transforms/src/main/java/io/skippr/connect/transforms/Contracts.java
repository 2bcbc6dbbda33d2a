package io.skippr.connect.transforms;

import io.skippr.connect.schema.Contract;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;

/**
 * Contracts by namespace, as read from one file or saved pipeline, with an optional namespace whose
 * contract applies to every record.
 */
public final class Contracts {
  private static final Contracts NONE = new Contracts(List.of(), null, "");

  private final Map<String, Contract> byNamespace = new LinkedHashMap<>();
  private final Contract fixed;
  private final String origin;

  Contracts(Collection<Contract> contracts, String fixedNamespace, String origin) {
    for (Contract contract : contracts) {
      if (byNamespace.put(contract.namespace(), contract) != null) {
        throw new ConfigException(origin + " holds two contracts for " + contract.namespace());
      }
    }
    this.origin = origin;
    if (fixedNamespace != null) {
      fixed = byNamespace.get(fixedNamespace);
      if (fixed == null) {
        throw new ConfigException(
            ContractConfig.NAMESPACE,
            fixedNamespace,
            "no such contract in " + origin + " (it has " + namespaces() + ")");
      }
    } else {
      fixed = null;
    }
  }

  /** No contracts at all. */
  public static Contracts none() {
    return NONE;
  }

  public boolean isEmpty() {
    return byNamespace.isEmpty();
  }

  /** The contract for a topic or namespace key (the fixed one when configured). */
  public Optional<Contract> forKey(String key) {
    return Optional.ofNullable(fixed != null ? fixed : byNamespace.get(key));
  }

  /** Where the contracts were read from. */
  public String origin() {
    return origin;
  }

  /** The namespaces held, comma-separated, for messages. */
  public String namespaces() {
    return String.join(", ", byNamespace.keySet());
  }
}
