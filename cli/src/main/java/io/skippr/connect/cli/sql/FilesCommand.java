package io.skippr.connect.cli.sql;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.cli.lake.LakeException;
import io.skippr.connect.cli.lake.OneLineErrors;
import io.skippr.connect.lake.log.LiveFile;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code skippr files}: a table's live files, for engines that read file lists. */
@Command(
    name = "files",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Prints the live files of a lake's tables, for other engines.",
      "The files the lake's logs list as live now, for Spark, Trino, pandas or DuckDB: absolute"
          + " paths in a local lake, s3:// URIs in a lake on S3. Read exactly these files and"
          + " every record counts once, while the sink writes and merges too.",
      "The files come in the order of their rows: by topic partition, then offset. For a"
          + " merge_by_key table they hold every version of a key until the next merge (and"
          + " delete markers): its current state is the last row of each key in that order"
          + " (file, then row in the file), unless that row deletes the key; skippr sql computes"
          + " it. A table's policy (in the json output) is the one its sink records in the lake,"
          + " under --connector's config and --merge-key, as for skippr sql.",
      "A list is good until the next merge of its tables: the inputs of a merge that commits"
          + " after the list was printed leave their table at once, and a reader then fails on"
          + " them, loudly: list again and read again.",
      "",
      "Examples:",
      "  skippr files --lake ./data/lake --table demo.cpu > files.txt",
      "    then in Spark: spark.read.parquet(*open('files.txt').read().split())",
      "  skippr files --connector orders-lake --table orders --output json",
      ""
    })
public final class FilesCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How the files are printed. */
  enum Output {
    text,
    json
  }

  @Mixin LakeOptions lake;

  @Option(
      names = "--table",
      paramLabel = "TABLE",
      description = "Only this table (default: every table).")
  String table;

  @Option(
      names = "--output",
      defaultValue = "text",
      paramLabel = "text|json",
      description =
          "text: one path or URI a line; json: per table its policy and files with rows, bytes"
              + " and commit time (default: ${DEFAULT-VALUE}).")
  Output output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    return OneLineErrors.run(
        spec,
        out -> {
          try (LakeCatalog catalog = lake.open()) {
            List<LakeTable> tables = selected(catalog);
            if (output == Output.json) {
              out.println(
                  JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json(catalog, tables)));
            } else {
              tables.forEach(t -> t.files().forEach(f -> out.println(catalog.uri(f.key()))));
            }
          }
          return 0;
        });
  }

  private List<LakeTable> selected(LakeCatalog catalog) throws IOException {
    List<LakeTable> tables = catalog.tables();
    if (table == null) {
      return tables;
    }
    List<LakeTable> named = tables.stream().filter(t -> t.name().equals(table)).toList();
    if (named.isEmpty()) {
      throw new LakeException(
          "no table "
              + table
              + " with live files in "
              + catalog.storage().location()
              + " (tables: "
              + String.join(", ", tables.stream().map(LakeTable::name).toList())
              + ")");
    }
    return named;
  }

  private static ObjectNode json(LakeCatalog catalog, List<LakeTable> tables) {
    ObjectNode doc = JSON.createObjectNode();
    doc.put("lake", catalog.storage().location());
    ArrayNode array = doc.putArray("tables");
    for (LakeTable table : tables) {
      ObjectNode node = array.addObject();
      node.put("table", table.name());
      node.put("policy", table.policy().byKey() ? "merge_by_key" : "append");
      table.policy().keyFields().forEach(node.putArray("key")::add);
      ArrayNode files = node.putArray("files");
      for (LiveFile file : table.files()) {
        ObjectNode entry = files.addObject().put("uri", catalog.uri(file.key()));
        entry.put("rows", file.rows()).put("bytes", file.bytes());
        if (file.committedAtMs() != null) {
          entry.put("committed_at", Instant.ofEpochMilli(file.committedAtMs()).toString());
        }
      }
    }
    return doc;
  }
}
