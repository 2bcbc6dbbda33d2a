package io.skippr.connect.json;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.ConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;

/** One converter configuration and role, applied alike to Kafka's converter and ours. */
record Setup(
    boolean schemasEnable,
    DecimalFormat decimalFormat,
    boolean replaceNullWithDefault,
    int cacheSize,
    String schemaContent,
    ConverterType role) {

  static Setup of(boolean schemasEnable) {
    return new Setup(schemasEnable, DecimalFormat.BASE64, true, 1000, null, ConverterType.VALUE);
  }

  Setup withSchemaContent(String content) {
    return new Setup(
        schemasEnable, decimalFormat, replaceNullWithDefault, cacheSize, content, role);
  }

  Setup withDecimalFormat(DecimalFormat format) {
    return new Setup(schemasEnable, format, replaceNullWithDefault, cacheSize, schemaContent, role);
  }

  Setup withReplaceNullWithDefault(boolean replace) {
    return new Setup(schemasEnable, decimalFormat, replace, cacheSize, schemaContent, role);
  }

  Setup withRole(ConverterType converterType) {
    return new Setup(
        schemasEnable,
        decimalFormat,
        replaceNullWithDefault,
        cacheSize,
        schemaContent,
        converterType);
  }

  Map<String, Object> props() {
    Map<String, Object> props = new HashMap<>();
    props.put("schemas.enable", schemasEnable);
    props.put("decimal.format", decimalFormat.name().toLowerCase(java.util.Locale.ROOT));
    props.put("replace.null.with.default", replaceNullWithDefault);
    props.put("schemas.cache.size", cacheSize);
    if (schemaContent != null) {
      props.put("schema.content", schemaContent);
    }
    return props;
  }

  JsonConverter kafka() {
    JsonConverter converter = new JsonConverter();
    configure(converter);
    return converter;
  }

  StreamingJsonConverter ours() {
    StreamingJsonConverter converter = new StreamingJsonConverter();
    configure(converter);
    return converter;
  }

  /** As a worker configures a converter in this role. */
  void configure(Object converter) {
    if (role == ConverterType.HEADER) {
      Map<String, Object> props = props();
      props.put(ConverterConfig.TYPE_CONFIG, ConverterType.HEADER.getName());
      ((org.apache.kafka.connect.storage.HeaderConverter) converter).configure(props);
    } else {
      ((org.apache.kafka.connect.storage.Converter) converter)
          .configure(props(), role == ConverterType.KEY);
    }
  }
}
