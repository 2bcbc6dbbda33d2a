package io.skippr.connect.cli.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

/** {@code --output json}: the whole report as one JSON document (docs/audit.md shows its shape). */
final class ReportJson {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private ReportJson() {}

  static String of(AuditReport report) {
    try {
      return JSON.writeValueAsString(report);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the audit report as JSON", e);
    }
  }
}
