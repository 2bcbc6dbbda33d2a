package io.skippr.connect.cli.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.skippr.connect.cli.discover.CommandRun;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr files} lists exactly the live files in the order of their rows; with {@code
 * --connector} both commands read the connector's tables with its write policy.
 */
class FilesCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;
  private LogLake lake;
  private HttpServer connect;

  @BeforeEach
  void open() throws Exception {
    lake = new LogLake(root);
  }

  @AfterEach
  void close() throws Exception {
    lake.close();
    if (connect != null) {
      connect.stop(0);
    }
  }

  @Test
  void listsTheLiveFilesOfATableInRowOrder() throws Exception {
    String gen2 = lake.commit("t", "t", 0, 2, 0, 0, "select 1 as id");
    String gen0 = lake.commit("t", "t", 0, 0, 3, 5, "select 2 as id");
    String otherPartition = lake.commit("t", "t", 1, 0, 0, "select 3 as id");
    String gen10 = lake.commit("t", "t", 0, 10, 0, 0, "select 4 as id");
    lake.commit("u", "u", 0, 0, 0, "select 5 as id");
    lake.orphan(
        LogLake.unitKey("t", "t", 0, "00000000000000000006+00000000000000000009"), "select 9");

    CommandRun text = files("--table", "t");

    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out().lines().toList())
        .containsExactly(path(gen0), path(gen2), path(gen10), path(otherPartition));
    for (String line : text.out().lines().toList()) {
      assertThat(Path.of(line)).isAbsolute().exists();
    }

    CommandRun json = files("--table", "t", "--output", "json");
    JsonNode doc = JSON.readTree(json.out());
    assertThat(doc.get("lake").asText()).isEqualTo(root.toUri().toString());
    JsonNode table = doc.get("tables").get(0);
    assertThat(table.get("table").asText()).isEqualTo("t");
    assertThat(table.get("policy").asText()).isEqualTo("append");
    assertThat(table.get("files")).hasSize(4);
    JsonNode first = table.get("files").get(0);
    assertThat(first.get("uri").asText()).isEqualTo(path(gen0));
    assertThat(first.get("rows").asLong()).isEqualTo(1);
    assertThat(first.get("bytes").asLong()).isEqualTo(Files.size(root.resolve(gen0)));
    assertThat(first.get("committed_at").asText()).isEqualTo("2026-01-01T00:00:02Z");

    assertThat(files().out().lines()).hasSize(5);
    assertThat(files("--table", "nope"))
        .isEqualTo(
            new CommandRun(
                1,
                "",
                "skippr files: no table nope with live files in "
                    + root.toUri()
                    + " (tables: t, u)\n"));
  }

  @Test
  void aConnectorsTablesAreReadWithItsWritePolicy() throws Exception {
    lake.commit(
        "orders",
        "orders",
        0,
        0,
        2,
        "select * from (values (1, 'a'), (2, 'a'), (1, 'b')) t(id, v)");
    lake.commit("other", "other", 0, 0, 0, "select 1 as id");
    String url =
        fakeConnect(
            "orders-lake",
            Map.of(
                "connector.class", "io.skippr.connect.sink.LakeSinkConnector",
                "topics", "orders",
                "topics.dir", root.toString(),
                "write.policy", "merge_by_key",
                "merge.key.fields", "id"));

    CommandRun tables =
        CommandRun.of(
            new SqlCommand(),
            List.of(
                "--connector", "orders-lake", "--connect-url", url, "--tables", "--output", "csv"));
    assertThat(tables.err()).isEmpty();
    assertThat(tables.out().lines().map(line -> line.split(",")[0] + "," + line.split(",")[1]))
        .containsExactly("table,policy", "orders,merge_by_key(id)");

    CommandRun rows =
        CommandRun.of(
            new SqlCommand(),
            List.of(
                "--connector",
                "orders-lake",
                "--connect-url",
                url,
                "--output",
                "csv",
                "select id, v from orders order by id"));
    assertThat(rows).isEqualTo(new CommandRun(0, "id,v\n1,b\n2,a\n", ""));

    CommandRun listed =
        CommandRun.of(
            new FilesCommand(),
            List.of("--connector", "orders-lake", "--connect-url", url, "--output", "json"));
    JsonNode doc = JSON.readTree(listed.out());
    assertThat(doc.get("tables")).hasSize(1);
    assertThat(doc.get("tables").get(0).get("key").get(0).asText()).isEqualTo("id");

    CommandRun unknown =
        CommandRun.of(new FilesCommand(), List.of("--connector", "nope", "--connect-url", url));
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err())
        .isEqualTo("skippr files: Connect at " + url + " has no connector nope\n");
  }

  private String path(String key) {
    return root.resolve(key).toString();
  }

  private CommandRun files(String... args) {
    List<String> all = new ArrayList<>(List.of("--lake", root.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(new FilesCommand(), all);
  }

  /** Connect's REST API as far as reading one connector's config goes. */
  private String fakeConnect(String name, Map<String, String> config) throws Exception {
    connect = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] body = JSON.writeValueAsBytes(config);
    connect.createContext(
        "/connectors/",
        exchange -> {
          boolean known =
              exchange.getRequestURI().getPath().equals("/connectors/" + name + "/config");
          byte[] answer =
              known
                  ? body
                  : "{\"error_code\":404,\"message\":\"no\"}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(known ? 200 : 404, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    connect.start();
    return "http://127.0.0.1:" + connect.getAddress().getPort();
  }
}
