package io.skippr.connect.cli.sql;

import io.skippr.connect.cli.lake.LakeException;
import io.skippr.connect.cli.lake.OneLineErrors;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code skippr sql}: DuckDB over the lake's live files, a merge_by_key table as its state. */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a SQL query with DuckDB, in this process, over a lake's live files.",
      "Each lake table the query names is a view of that name over exactly the files the lake's"
          + " logs list as live at the start of the query: no file of a unit or merge being"
          + " written, no merged file beside its inputs, so every record counts once, while the"
          + " sink writes and merges too. Quote table names holding dots: select count(*) from"
          + " \"demo.cpu\".",
      "A table with write.policy=merge_by_key is its current state, between merges too: the"
          + " last row of each key in (topic partition, offset) order, and no row for a key whose"
          + " last row deletes it (__deleted=true, or op=d). The lake records each table's"
          + " write.policy and merge key as its sink commits: --lake alone reads them. Over the"
          + " record: --connector's config, over both: --merge-key. A table of a lake written"
          + " before policies were recorded is read as appended unless one of those says"
          + " otherwise.",
      "A lake on S3 is read with the lake sink's S3 settings and the AWS default credentials:"
          + " the live files of the tables the query names are fetched into a temporary"
          + " directory first (DuckDB's httpfs extension is not bundled).",
      "On a terminal, a query running longer than a second shows its progress. Exit code 0"
          + " when the statement ran, 1 with a one-line reason otherwise.",
      "",
      "Examples:",
      "  skippr sql --lake ./data/lake --tables",
      "  skippr sql --lake ./data/lake 'select count(*) from \"demo.cpu\"'",
      "  skippr sql --connector orders-lake --output csv 'select * from orders'",
      "  skippr sql --lake s3://bucket/lake --setting s3.region=eu-west-1 - < q.sql",
      ""
    })
public final class SqlCommand implements Callable<Integer> {
  @Mixin LakeOptions lake;

  @Option(
      names = "--output",
      defaultValue = "table",
      paramLabel = "table|csv|json",
      description =
          "table: aligned columns and a row count; csv: RFC 4180 with a header line; json: an"
              + " array of one object per row (default: ${DEFAULT-VALUE}).")
  ResultPrinter.Output output;

  @Option(
      names = "--tables",
      description =
          "List the tables instead: policy, live files, rows in them (every version and delete"
              + " marker of a merge_by_key table), bytes and last commit (UTC).")
  boolean tables;

  @Parameters(
      arity = "0..1",
      paramLabel = "QUERY",
      description = "One SQL statement; - reads it from standard input.")
  String query;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    return OneLineErrors.run(
        spec,
        out -> {
          String sql = statement();
          try (LakeSql lakeSql = new LakeSql(lake.open())) {
            if (tables) {
              lakeSql.printTables(output, out);
            } else {
              PrintWriter err = spec.commandLine().getErr();
              lakeSql.query(sql, output, out, QueryProgress.onTerminal(err));
            }
          }
          return 0;
        });
  }

  private String statement() throws IOException {
    if (tables) {
      if (query != null) {
        throw new LakeException("give a QUERY or --tables, not both");
      }
      return null;
    }
    if (query == null) {
      throw new LakeException("give a QUERY (- reads it from standard input), or --tables");
    }
    String sql = query.equals("-") ? stdin() : query;
    if (sql.isBlank()) {
      throw new LakeException("the query is empty");
    }
    return sql;
  }

  private static String stdin() throws IOException {
    InputStream in = System.in;
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }
}
