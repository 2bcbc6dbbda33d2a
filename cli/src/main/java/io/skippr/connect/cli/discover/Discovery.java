package io.skippr.connect.cli.discover;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.MergeResult;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.SchemaInference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;

/** Infers one contract per namespace from sampled source records. */
public final class Discovery {
  private static final int MAX_NOTES = 5;

  /**
   * One namespace's contract.
   *
   * @param contract the inferred contract
   * @param records how many sampled records it was inferred from
   */
  public record NamespaceContract(Contract contract, int records) {}

  /**
   * What discovery found.
   *
   * @param id the pipeline
   * @param sampled records the source returned
   * @param skipped records without an object value (or an unusable namespace)
   * @param notes why records were skipped (the first few distinct reasons)
   * @param namespaces contracts by namespace, sorted by name
   */
  public record Result(
      PipelineId id,
      int sampled,
      int skipped,
      List<String> notes,
      List<NamespaceContract> namespaces) {

    public List<Contract> contracts() {
      return namespaces.stream().map(NamespaceContract::contract).toList();
    }
  }

  private Discovery() {}

  /**
   * Groups the records by namespace and infers each group's contract.
   *
   * @throws DiscoveryException when no record had an object value
   */
  static Result infer(PipelineId id, List<SourceRecord> records, Namespacer namespacer) {
    Map<String, List<Object>> byNamespace = new TreeMap<>();
    Map<String, Integer> notes = new LinkedHashMap<>();
    int skipped = 0;
    for (SourceRecord record : records) {
      Map<String, Object> value = Schemaless.object(record.value());
      String reason = value == null ? Schemaless.kind(record.value()) : null;
      String namespace = null;
      if (value != null) {
        try {
          namespace = namespacer.namespace(record, value);
        } catch (DataException e) {
          reason = e.getMessage();
        }
      }
      if (namespace == null) {
        skipped++;
        notes.merge(reason, 1, Integer::sum);
        continue;
      }
      byNamespace.computeIfAbsent(namespace, n -> new ArrayList<>()).add(value);
    }
    if (byNamespace.isEmpty()) {
      throw new DiscoveryException(
          "none of the "
              + records.size()
              + " sampled records has an object value to infer a schema from ("
              + describe(notes)
              + ")");
    }
    List<NamespaceContract> contracts = new ArrayList<>();
    byNamespace.forEach(
        (namespace, values) -> {
          MergeResult merged = SchemaInference.inferAll(values);
          contracts.add(
              new NamespaceContract(new Contract(namespace, merged.schema()), values.size()));
        });
    return new Result(id, records.size(), skipped, noteList(notes), contracts);
  }

  private static List<String> noteList(Map<String, Integer> notes) {
    return notes.entrySet().stream()
        .limit(MAX_NOTES)
        .map(e -> e.getValue() + " × " + e.getKey())
        .toList();
  }

  private static String describe(Map<String, Integer> notes) {
    return String.join("; ", noteList(notes));
  }
}
