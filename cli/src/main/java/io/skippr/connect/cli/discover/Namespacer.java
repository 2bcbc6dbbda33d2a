package io.skippr.connect.cli.discover;

import io.skippr.connect.common.Messages;
import java.util.Map;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Names the contract a sampled record belongs to: its topic, or, with namespace fields, the topic
 * the plugin's own {@code NamespaceRouter} routes it to, so that contract names and the lake's
 * table names agree.
 */
final class Namespacer implements AutoCloseable {
  static final String ROUTER_CLASS = "io.skippr.connect.transforms.NamespaceRouter";

  private final Transformation<SourceRecord> router;

  private Namespacer(Transformation<SourceRecord> router) {
    this.router = router;
  }

  /** One namespace per topic. */
  static Namespacer byTopic() {
    return new Namespacer(null);
  }

  /** Namespaces by the pipeline's fields, through the router loaded from {@code loader}. */
  @SuppressWarnings("unchecked")
  static Namespacer byFields(PipelineSpec spec, ClassLoader loader) {
    if (spec.namespaceFields().isEmpty()) {
      return byTopic();
    }
    Transformation<SourceRecord> router;
    try {
      router =
          (Transformation<SourceRecord>)
              Class.forName(ROUTER_CLASS, true, loader).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new DiscoveryException(
          "namespace_fields needs " + ROUTER_CLASS + " from the plugin directory: " + e, e);
    }
    try {
      router.configure(
          Map.of(
              "namespace.fields", String.join(",", spec.namespaceFields()),
              "namespace.separator", spec.namespaceSeparator()));
    } catch (RuntimeException e) {
      throw new DiscoveryException(
          spec.id().pipeline() + ": namespace settings rejected: " + Messages.oneLine(e), e);
    }
    return new Namespacer(router);
  }

  /**
   * The namespace of a record whose value is already schemaless.
   *
   * @throws DataException when a namespace field holds an object or array
   */
  String namespace(SourceRecord record, Map<String, Object> value) {
    if (router == null) {
      return record.topic();
    }
    SourceRecord schemaless =
        record.newRecord(
            record.topic(),
            record.kafkaPartition(),
            record.keySchema(),
            record.key(),
            null,
            value,
            record.timestamp());
    return router.apply(schemaless).topic();
  }

  @Override
  public void close() {
    if (router != null) {
      router.close();
    }
  }
}
