package io.skippr.connect.transforms;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ValueConformer;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.errors.DataException;

/**
 * Checks each record value against its schema contract (see {@link ContractConfig}): a value that
 * does not conform fails with a {@link DataException} whose message names the field path and the
 * reason (e.g. {@code items[2].price: expected double, got string "abc"}), so that with {@code
 * errors.tolerance=all} it lands in the dead letter queue with Connect's error headers. A value
 * that conforms passes on conformed to the contract's schema, or unchanged.
 *
 * <p>Value only: contracts describe record values.
 */
public class ValidateContract<R extends ConnectRecord<R>> extends SkipprTransformation<R> {
  public static final String OVERVIEW_DOC =
      "Fails records whose value does not conform to the schema contract, naming the field and the"
          + " reason; passes the others on, conformed to the contract or unchanged.";

  public static final ConfigDef CONFIG_DEF = ValidateContractConfig.define(new ConfigDef());

  private ValidateContractConfig.Settings settings;

  @Override
  public void configure(Map<String, ?> props) {
    settings = ValidateContractConfig.from(new AbstractConfig(CONFIG_DEF, props));
  }

  @Override
  public R apply(R record) {
    String key = record.topic();
    try {
      key = settings.namespaces().route(record.topic(), record.value());
      Optional<Contract> contract = settings.contracts().forKey(key);
      if (contract.isEmpty()) {
        if (!settings.failWithoutContract()) {
          return record;
        }
        throw new DataException(
            "no contract for "
                + key
                + " in "
                + settings.contracts().origin()
                + " (it has "
                + settings.contracts().namespaces()
                + ")");
      }
      Object conformed = ValueConformer.conform(record.value(), contract.get().schema());
      if (!settings.conformed()) {
        return record;
      }
      return RecordPart.VALUE.replace(record, contract.get().schema(), conformed);
    } catch (DataException e) {
      throw new DataException(
          "ValidateContract: value of " + InferSchema.where(record, key) + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public ConfigDef config() {
    return CONFIG_DEF;
  }
}
