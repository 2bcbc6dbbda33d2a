package io.skippr.connect.cli.demo;

import java.io.PrintStream;
import java.nio.file.Path;

/** How to go on after the demo: push more rows, query the lake, look at the connectors. */
final class DemoHints {
  private DemoHints() {}

  static void print(PrintStream out, String ingest, String rest, Path lake) {
    String skippr = "  ./skippr ";
    String lakeOption = "--lake " + DemoReport.shellWord(lake.toString());
    String[] lines = {
      "Push more rows (they land in the lake within a few seconds):",
      "  curl -i -XPOST '" + ingest + "/api/v2/write?bucket=demo&precision=s' \\",
      "    --data-binary \"cpu,host=host-01,region=eu-west usage_user=12.5,usage_system=3.1"
          + " $(date +%s)\"",
      "  curl -i -XPOST " + ingest + "/ingest/orders -H 'Content-Type: application/json' \\",
      "    -d '[{\"order_id\":1,\"country\":\"DE\",\"amount\":9.5,\"items\":1,\"paid\":true}]'",
      "  A new measurement becomes a new topic demo.<name>, a new JSON stream demo.events.<name>,"
          + " each a new lake table.",
      "Query the lake (DuckDB over exactly the files the lake log lists as live: no row twice,"
          + " none missing, while the sinks write and merge):",
      skippr + "sql " + lakeOption + " --tables",
      skippr
          + "sql "
          + lakeOption
          + " 'select host, count(*) from \""
          + DemoReport.CPU
          + "\" group by host order by host'",
      skippr + "sql " + lakeOption + " --output csv 'select * from \"" + DemoReport.ORDERS + "\"'",
      skippr
          + "files "
          + lakeOption
          + " --table "
          + DemoReport.CPU
          + "    (the live files, for Spark, pandas, ...)",
      "  Files appear under "
          + lake
          + "/<table>/dt=<day>/ and the lake log under "
          + lake
          + "/_skippr/; the sinks merge small files every "
          + DemoConnectors.COMPACTION_INTERVAL_MS / 1000
          + " s; a glob never reads a row twice: merged inputs leave the table first, and wait "
          + DemoConnectors.COMPACTION_GRACE_MS / 1000
          + " s under "
          + lake
          + "/_skippr/retired/ (docs/reading.md).",
      "Connectors: "
          + DemoConnectors.SOURCE
          + ", "
          + DemoConnectors.SINK
          + " and "
          + DemoConnectors.EVENTS_SINK
          + " (curl -s '"
          + rest
          + "/connectors?expand=status'); rows a sink cannot hold go to the topic "
          + DemoConnectors.DLQ
          + "."
    };
    for (String line : lines) {
      out.println(line);
    }
    out.flush();
  }
}
