package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/** Log entries forged or edited in a local lake, sealed as a writer seals them. */
final class ForgedLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ForgedLog() {}

  /**
   * Appends to partition {@code p}'s log a commit of a unit {@code [start, end]} that the lake
   * already holds, with a copy of the last unit's file under the forged unit's name, as plain JSON
   * next to the log's own entries, sealed as a writer seals them (a duplicate as a buggy or
   * replayed writer would leave it). It ends where the last unit ends, so the lake still resumes
   * where it did.
   */
  static void forgeUnit(String topic, Path lakeDir, int p, long start, long end) throws Exception {
    Path log = lakeDir.resolve("_skippr/log/" + topic + "/" + p);
    List<Path> entries;
    try (Stream<Path> files = Files.list(log)) {
      entries = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    ObjectNode commit = null;
    long epoch = 0;
    for (Path entry : entries) {
      JsonNode node = JSON.readTree(entry.toFile());
      epoch = Math.max(epoch, node.get("epoch").asLong());
      if (node.get("kind").asText().equals("commit")) {
        commit = (ObjectNode) node;
      }
    }
    assertThat(commit).as("a commit entry in " + entries).isNotNull();
    String id = String.format("%s+%d+%020d+%020d", topic, p, start, end);
    ObjectNode file = (ObjectNode) commit.get("files").get(0);
    String original = file.get("key").asText();
    String forged = original.replace(commit.get("id").asText(), id);
    assertThat(forged).isNotEqualTo(original);
    Files.copy(lakeDir.resolve(original), lakeDir.resolve(forged));
    ArrayNode files = JSON.createArrayNode().add(file.put("key", forged));
    commit.put("id", id).put("start", start).put("end", end).put("epoch", epoch);
    commit.set("files", files);
    Path next = log.resolve(String.format("%020d.json", entries.size()));
    Files.write(next, sealed(commit));
  }

  /**
   * Rewrites partition {@code p}'s first unit to start at {@code start}, intent and commit, as a
   * writer that lost the records before would have written them.
   */
  static void editFirstUnitStart(String topic, Path lakeDir, int p, long start) throws Exception {
    Path log = lakeDir.resolve("_skippr/log/" + topic + "/" + p);
    List<Path> entries;
    try (Stream<Path> files = Files.list(log)) {
      entries = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    int edited = 0;
    for (Path entry : entries) {
      ObjectNode node = (ObjectNode) JSON.readTree(entry.toFile());
      String kind = node.get("kind").asText();
      if ((kind.equals("intent") || kind.equals("commit")) && node.get("start").asLong() == 0) {
        String id = node.get("id").asText();
        node.put("id", id.replace("+00000000000000000000+", String.format("+%020d+", start)));
        Files.write(entry, sealed(node.put("start", start)));
        edited++;
      }
    }
    assertThat(edited).as("the intent and commit of offset 0 in " + entries).isEqualTo(2);
  }

  /**
   * An entry's bytes as the lake stores them: the JSON, ending with the SHA-256 of the bytes before
   * the {@code sha256} field (see docs/lake-format.md).
   */
  static byte[] sealed(ObjectNode entry) throws Exception {
    entry.remove("sha256");
    String json = JSON.writeValueAsString(entry);
    String body = json.substring(0, json.length() - 1);
    String sha256 =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
    return (body + ",\"sha256\":\"" + sha256 + "\"}").getBytes(StandardCharsets.UTF_8);
  }
}
