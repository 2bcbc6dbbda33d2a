package io.skippr.connect.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Inference notes carried inside a schema as parameters, so that a schema merged many times still
 * knows which of its strings are placeholders (only nulls seen) or conflict results. Converters
 * ignore schema parameters, so the notes never reach the data.
 */
public final class SchemaMarkers {
  /** Parameter set to {@code true} on the optional string inferred for a field only ever null. */
  public static final String NULL_ONLY = "io.skippr.connect.schema.null.only";

  /** Parameter listing (comma-separated, sorted) the types merged into a conflict string. */
  public static final String CONFLICT = "io.skippr.connect.schema.conflict";

  private static final Schema NULL_ONLY_SCHEMA =
      SchemaBuilder.string().optional().parameter(NULL_ONLY, "true").build();

  private SchemaMarkers() {}

  /** The schema inferred for a value that is null. */
  public static Schema nullOnly() {
    return NULL_ONLY_SCHEMA;
  }

  /** True when the schema is the placeholder for a field only ever null. */
  public static boolean isNullOnly(Schema schema) {
    return "true".equals(parameter(schema, NULL_ONLY));
  }

  /** The optional string a conflict between the given types becomes. */
  public static Schema conflict(SortedSet<String> typesSeen) {
    return SchemaBuilder.string()
        .optional()
        .parameter(CONFLICT, String.join(",", typesSeen))
        .build();
  }

  /** The types merged into a conflict string; empty when the schema is not one. */
  public static SortedSet<String> conflictTypes(Schema schema) {
    String seen = parameter(schema, CONFLICT);
    if (seen == null || seen.isEmpty()) {
      return Collections.emptySortedSet();
    }
    return new TreeSet<>(Arrays.asList(seen.split(",")));
  }

  /** True when the parameter key is one of ours (not part of the type). */
  public static boolean isMarker(String parameterKey) {
    return NULL_ONLY.equals(parameterKey) || CONFLICT.equals(parameterKey);
  }

  /** The schema's parameters without our markers, sorted by key (empty when it has none). */
  public static SortedMap<String, String> typeParameters(Schema schema) {
    SortedMap<String, String> parameters = new TreeMap<>();
    if (schema.parameters() != null) {
      parameters.putAll(schema.parameters());
      parameters.keySet().removeIf(SchemaMarkers::isMarker);
    }
    return parameters;
  }

  /** Every flag in the schema, in field order. */
  public static List<SchemaFlag> flags(Schema schema) {
    List<SchemaFlag> flags = new ArrayList<>();
    collect(schema, "", flags);
    return List.copyOf(flags);
  }

  private static void collect(Schema schema, String path, List<SchemaFlag> flags) {
    if (isNullOnly(schema)) {
      flags.add(new SchemaFlag(path, SchemaFlag.Kind.NULL_ONLY, ""));
    }
    SortedSet<String> conflict = conflictTypes(schema);
    if (!conflict.isEmpty()) {
      flags.add(new SchemaFlag(path, SchemaFlag.Kind.TYPE_CONFLICT, String.join(",", conflict)));
    }
    switch (schema.type()) {
      case STRUCT -> {
        for (Field field : schema.fields()) {
          collect(field.schema(), path.isEmpty() ? field.name() : path + "." + field.name(), flags);
        }
      }
      case ARRAY -> collect(schema.valueSchema(), path + "[]", flags);
      case MAP -> {
        collect(schema.keySchema(), path + "{key}", flags);
        collect(schema.valueSchema(), path + "{}", flags);
      }
      default -> {
        // primitives have no children
      }
    }
  }

  private static String parameter(Schema schema, String key) {
    Map<String, String> parameters = schema.parameters();
    return parameters == null ? null : parameters.get(key);
  }
}
