package io.skippr.connect.lake.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.common.Messages;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * What the lake's per-table version files ({@code _skippr/schema/} and {@code _skippr/policy/})
 * share: a file must name the table and version its key says, and a storage failure says what it
 * could not do and why.
 */
final class TableVersionFiles {
  private TableVersionFiles() {}

  /**
   * Refuses a file whose {@code table} or {@code versionField} differs from its key's table
   * directory and version number; with {@code required} false a missing field is accepted (files of
   * an older format did not carry it).
   */
  static void belongsHere(
      ObjectNode node, String key, String what, String versionField, boolean required) {
    String table = key.substring(0, key.lastIndexOf('/'));
    table = table.substring(table.lastIndexOf('/') + 1);
    JsonNode named = node.get("table");
    JsonNode version = node.get(versionField);
    if (named == null ? required : !(named.isTextual() && named.asText().equals(table))) {
      throw new LogFormatException(what + " names table " + named + ", not " + table);
    }
    long seq = LakeLayout.seqOf(key);
    if (version == null ? required : !(version.isIntegralNumber() && version.asLong() == seq)) {
      throw new LogFormatException(
          what + " names " + versionField.replace('_', ' ') + " " + version + ", not " + seq);
    }
  }

  static ConnectException failed(LakeStorage storage, String what, IOException e) {
    return new ConnectException(
        "Lake storage failed: cannot "
            + what
            + " in "
            + storage.location()
            + ": "
            + Messages.oneLine(e),
        e);
  }
}
