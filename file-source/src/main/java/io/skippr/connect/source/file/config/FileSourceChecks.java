package io.skippr.connect.source.file.config;

import io.skippr.connect.source.common.encoding.EncodingConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigException;

/**
 * Checks that involve several keys, each problem attached to the key the user has to change. Runs
 * only when every key is valid on its own.
 */
public final class FileSourceChecks {

  private FileSourceChecks() {}

  /** Problems by key for raw properties; empty when single keys are invalid (reported there). */
  public static Map<String, String> problems(Map<String, String> props) {
    AbstractConfig parsed;
    try {
      parsed = new AbstractConfig(FileSourceConfig.CONFIG_DEF, props, false);
    } catch (ConfigException e) {
      return Map.of();
    }
    Map<String, String> problems = problems(FileSourceConfig.values(parsed), props);
    StateStoreConfig.problems(props).forEach(problems::putIfAbsent);
    return problems;
  }

  static Map<String, String> problems(FileSourceConfig.Values v, Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    String converter = EncodingConfig.converterClash(v.encoding(), props);
    if (converter != null) {
      problems.put(EncodingConfig.ENCODING, converter);
    }
    FileFormat format = v.format().format();
    if (format != FileFormat.LINEPROTOCOL && v.topics().topic().isEmpty()) {
      problems.put(
          TopicsConfig.TOPIC,
          "file.format=" + format.configName() + " needs the topic to write to");
    }
    if (format == FileFormat.CSV) {
      csv(v.format().csv(), problems);
    }
    String rejections = v.topics().rejectionsTopic();
    if (rejections != null && rejections.equals(v.topics().topic())) {
      problems.put(
          TopicsConfig.REJECTIONS_TOPIC, "must differ from topic, or rejections mix with records");
    }
    completion(v, problems);
    return problems;
  }

  private static void csv(FormatConfig.Csv csv, Map<String, String> problems) {
    if (!csv.header() && csv.columns().isEmpty()) {
      problems.put(
          FormatConfig.CSV_COLUMNS,
          "csv.header=false needs csv.columns: the names of the columns, in order");
    }
    if (csv.columns().stream().anyMatch(String::isEmpty)) {
      problems.put(FormatConfig.CSV_COLUMNS, "column names must not be empty");
    } else if (csv.columns().stream().distinct().count() < csv.columns().size()) {
      problems.put(FormatConfig.CSV_COLUMNS, "column names must be distinct");
    }
    if (csv.delimiter() == csv.quote()) {
      problems.put(FormatConfig.CSV_QUOTE, "must differ from csv.delimiter");
    }
  }

  private static void completion(FileSourceConfig.Values v, Map<String, String> problems) {
    CompletedPolicy policy = v.completion().policy();
    if (v.directory().tail() && policy != CompletedPolicy.KEEP) {
      problems.put(
          CompletionConfig.POLICY,
          "file.tail=true follows files that never end: only keep is possible (rotate and expire"
              + " log files with logrotate)");
    }
    if (policy == CompletedPolicy.MOVE && v.completion().dir() == null) {
      problems.put(
          CompletionConfig.DIR, "file.completed.policy=move needs the directory to move to");
    }
    if (v.completion().dir() != null && v.completion().dir().equals(v.directory().dir())) {
      problems.put(CompletionConfig.DIR, "must differ from file.dir");
    }
  }
}
