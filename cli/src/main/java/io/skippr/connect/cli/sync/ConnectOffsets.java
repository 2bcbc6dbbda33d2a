package io.skippr.connect.cli.sync;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.common.Messages;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Source offsets in the body format of Connect's {@code PATCH /connectors/{name}/offsets}
 * (KIP-875), which {@code GET} prints too: {@code {"offsets":[{"partition":{..},"offset":{..}}]}}.
 */
final class ConnectOffsets {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

  private ConnectOffsets() {}

  static String write(Map<Map<String, Object>, Map<String, Object>> offsets) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode list = body.putArray("offsets");
    offsets.forEach(
        (partition, offset) -> {
          ObjectNode item = list.addObject();
          item.set("partition", JSON.valueToTree(partition));
          item.set("offset", JSON.valueToTree(offset));
        });
    return JSON.writeValueAsString(body);
  }

  /**
   * Reads a body from {@code file}, or stdin for {@code -}.
   *
   * @throws SyncException naming the file and what is wrong in it
   */
  static Map<Map<String, Object>, Map<String, Object>> read(String file) throws IOException {
    JsonNode body;
    try (InputStream in = "-".equals(file) ? System.in : Files.newInputStream(Path.of(file))) {
      body = JSON.readTree(in);
    } catch (NoSuchFileException e) {
      throw new SyncException(file + " does not exist");
    } catch (IOException e) {
      throw new SyncException(file + " is not JSON: " + Messages.oneLine(e));
    }
    return parse(file, body);
  }

  static Map<Map<String, Object>, Map<String, Object>> parse(String file, JsonNode body) {
    JsonNode list = body == null ? null : body.get("offsets");
    if (list == null || !list.isArray()) {
      throw new SyncException(
          file + " has no \"offsets\" list (the body of PATCH /connectors/{name}/offsets)");
    }
    Map<Map<String, Object>, Map<String, Object>> offsets = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      JsonNode partition = item.get("partition");
      JsonNode offset = item.get("offset");
      if (partition == null || !partition.isObject()) {
        throw new SyncException(file + ": offsets[" + i + "].partition must be an object");
      }
      if (offset == null || !(offset.isObject() || offset.isNull())) {
        throw new SyncException(file + ": offsets[" + i + "].offset must be an object or null");
      }
      offsets.put(
          JSON.convertValue(partition, MAP),
          offset.isNull() ? null : JSON.convertValue(offset, MAP));
    }
    return offsets;
  }
}
