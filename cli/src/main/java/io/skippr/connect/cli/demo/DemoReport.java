package io.skippr.connect.cli.demo;

import io.skippr.connect.cli.sql.LakeSql;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The queries the demo runs over the lake, printed as the {@code skippr sql} commands that run them
 * (ready to paste), each with its result.
 */
final class DemoReport {
  static final String CPU = DemoConnectors.TOPIC_PREFIX + DemoLoad.MEASUREMENT;
  static final String ORDERS = DemoConnectors.JSON_TOPIC_PREFIX + DemoLoad.STREAM;
  static final List<String> TABLES = List.of(CPU, ORDERS);

  private final Path lake;
  private final String run;

  DemoReport(Path lake, String run) {
    this.lake = lake;
    this.run = run;
  }

  /** How many rows of this run a table holds. */
  static String runCount(String table, String run) {
    return "select count(*) from " + view(table) + " where run = '" + run + "'";
  }

  List<String> queries() {
    List<String> queries = new ArrayList<>();
    queries.add(
        summary(CPU, "time")
            + "\nunion all\n"
            + summary(ORDERS, "ordered_at")
            + "\norder by \"table\"");
    queries.add(
        "select host, region, count(*) as points,"
            + " round(avg(usage_user), 2) as avg_user, round(max(usage_system), 2) as max_system\n"
            + "  from "
            + view(CPU)
            + "\n where run = '"
            + run
            + "'\n group by host, region order by host");
    queries.add(
        "select country, count(*) as orders, round(sum(amount), 2) as revenue,"
            + " sum(items) as items\n  from "
            + view(ORDERS)
            + "\n where run = '"
            + run
            + "'\n group by country order by country");
    return queries;
  }

  private String summary(String table, String timeColumn) {
    return "select '"
        + table
        + "' as \"table\", count(*) as rows, count(*) filter (where run = '"
        + run
        + "') as this_run,\n       min("
        + timeColumn
        + ") as first_time, max("
        + timeColumn
        + ") as last_time\n  from "
        + view(table);
  }

  /** A lake table's view as {@code skippr sql} names it: its name, quoted for the dots. */
  private static String view(String table) {
    return "\"" + table + "\"";
  }

  /** Runs every query and prints the command that runs it, then its result. */
  void print(LakeSql sql, PrintStream stream) throws SQLException, IOException {
    PrintWriter out = new PrintWriter(stream, true);
    for (String query : queries()) {
      out.println();
      out.println("$ ./skippr sql --lake " + shellWord(lake.toString()) + " - <<'SQL'");
      query.lines().forEach(out::println);
      out.println("SQL");
      sql.printTable(query, out, "");
    }
    out.println();
    out.flush();
  }

  /** A word the shell reads as it is: quoted when it holds anything but plain path characters. */
  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./=:,+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
