package io.skippr.connect.cli.demo;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The DuckDB queries the demo runs over the lake, printed with their results. */
final class DemoReport {
  static final String CPU = DemoConnectors.TOPIC_PREFIX + DemoLoad.MEASUREMENT;
  static final String ORDERS = DemoConnectors.JSON_TOPIC_PREFIX + DemoLoad.STREAM;
  static final List<String> TABLES = List.of(CPU, ORDERS);

  private final Map<String, LakeSources.Source> sources;
  private final String run;

  DemoReport(Map<String, LakeSources.Source> sources, String run) {
    this.sources = sources;
    this.run = run;
  }

  /** How many rows of this run a table holds. */
  static String runCount(LakeSources.Source source, String run) {
    return "select count(*) from " + source.expression() + " where run = '" + run + "'";
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
            + from(CPU)
            + "\n where run = '"
            + run
            + "'\n group by host, region order by host");
    queries.add(
        "select country, count(*) as orders, round(sum(amount), 2) as revenue,"
            + " sum(items) as items\n  from "
            + from(ORDERS)
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
        + from(table);
  }

  private String from(String table) {
    return sources.get(table).expression();
  }

  /** Runs every query and prints it, then its result. */
  void print(DuckDb db, PrintStream out) throws SQLException {
    for (String sql : queries()) {
      TextTable result = db.query(sql);
      out.println();
      (sql + ";").lines().forEach(line -> out.println("  " + line));
      out.println();
      result.lines("  ").forEach(out::println);
      out.println("  (" + result.size() + (result.size() == 1 ? " row)" : " rows)"));
    }
    out.println();
    out.flush();
  }
}
