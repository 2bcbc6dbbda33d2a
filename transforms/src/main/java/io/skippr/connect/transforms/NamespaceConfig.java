package io.skippr.connect.transforms;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * Which record fields name a record's namespace, and how a namespace becomes a topic name. Shared
 * by {@link NamespaceRouter} (which moves records) and by {@link InferSchema} and {@link
 * ValidateContract} (which keep one schema per namespace when they run before the router).
 */
public final class NamespaceConfig {
  public static final String FIELDS = "namespace.fields";
  public static final String SEPARATOR = "namespace.separator";
  public static final String FALLBACK = "namespace.fallback";
  public static final String DEFAULT_NAMESPACE = "namespace.default";

  /** Environment variable read by {@link NamespaceRouter} when {@value #FIELDS} is not set. */
  public static final String FIELDS_ENV = "TRANSFORM_NAMESPACE_FIELDS";

  private static final Pattern LEGAL_SEPARATOR = Pattern.compile("[a-zA-Z0-9._-]{1,16}");

  /** What happens to a record whose namespace field is missing or null. */
  public enum Fallback {
    /** The record keeps its topic. */
    TOPIC,
    /** The record goes to the {@value #DEFAULT_NAMESPACE} namespace. */
    DEFAULT,
    /** The record fails (and goes to the dead letter queue when one is configured). */
    FAIL;

    String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private NamespaceConfig() {}

  public static ConfigDef define(ConfigDef def, String fieldsDoc) {
    return def.define(FIELDS, Type.LIST, List.of(), Importance.HIGH, fieldsDoc)
        .define(
            SEPARATOR,
            Type.STRING,
            ".",
            (name, value) -> {
              if (value == null || !LEGAL_SEPARATOR.matcher(value.toString()).matches()) {
                throw new ConfigException(
                    name, value, "1 to 16 characters out of letters, digits, '.', '_' and '-'");
              }
            },
            Importance.LOW,
            "Joins the topic and the namespace ({topic}.{namespace} by default), and the values of"
                + " several namespace fields.")
        .define(
            FALLBACK,
            Type.STRING,
            Fallback.TOPIC.configName(),
            ConfigDef.ValidString.in(
                Arrays.stream(Fallback.values()).map(Fallback::configName).toArray(String[]::new)),
            Importance.MEDIUM,
            "When a namespace field is missing, null or empty: 'topic' keeps the record's topic,"
                + " 'default' uses the namespace named by "
                + DEFAULT_NAMESPACE
                + ", 'fail' fails the record (it goes to the dead letter queue with"
                + " errors.tolerance=all).")
        .define(
            DEFAULT_NAMESPACE,
            Type.STRING,
            "default",
            new ConfigDef.NonEmptyStringWithoutControlChars(),
            Importance.LOW,
            "The namespace of records without a namespace value when " + FALLBACK + "=default.");
  }

  /** The naming rules; no namespace fields means one namespace per topic. */
  public static NamespaceNames from(AbstractConfig config) {
    return from(config, Map.of());
  }

  /**
   * The naming rules, taking the fields from {@code env} ({@value #FIELDS_ENV}, comma-separated)
   * when {@value #FIELDS} is empty.
   */
  public static NamespaceNames from(AbstractConfig config, Map<String, String> env) {
    List<String> fields = config.getList(FIELDS);
    if (fields.isEmpty() && env.get(FIELDS_ENV) != null) {
      fields =
          Arrays.stream(env.get(FIELDS_ENV).split(","))
              .map(String::trim)
              .filter(s -> !s.isEmpty())
              .toList();
    }
    return new NamespaceNames(
        FieldPath.parseAll(FIELDS, fields),
        config.getString(SEPARATOR),
        Fallback.valueOf(config.getString(FALLBACK).toUpperCase(Locale.ROOT)),
        config.getString(DEFAULT_NAMESPACE));
  }
}
