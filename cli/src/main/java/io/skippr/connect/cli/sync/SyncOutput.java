package io.skippr.connect.cli.sync;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * What a run tells its user: events as JSON lines for machines ({@code --output json}), a line per
 * event ({@code text}), or one progress line on a terminal ({@code progress}).
 */
final class SyncOutput {
  /** The output formats. */
  enum Format {
    progress,
    json,
    text
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Format format;
  private final PrintStream out;
  private final PrintStream err;
  private final String pipeline;
  private final long started = System.nanoTime();

  SyncOutput(Format format, PrintStream out, PrintStream err, String pipeline) {
    this.format = format;
    this.out = out;
    this.err = err;
    this.pipeline = pipeline;
  }

  synchronized void start(String source, String lake, int partitions) {
    ObjectNode event = event("sync_start");
    event.put("source", source).put("lake", lake).put("resumed_partitions", partitions);
    emit(
        event,
        "sync of "
            + pipeline
            + ": "
            + source
            + " into "
            + lake
            + (partitions == 0 ? "" : " (resuming " + partitions + " source partition(s))"));
  }

  synchronized void waiting(String holder) {
    ObjectNode event = event("sync_waiting");
    event.put("holder", holder);
    if (format == Format.json) {
      emit(event, "");
    } else {
      err.println("skippr sync: waiting for " + holder);
      err.flush();
    }
  }

  synchronized void unitCommitted(
      String unit, long endOffset, Map<String, Object> sourceOffset, long records) {
    ObjectNode event = event("unit_committed");
    event.put("unit", unit).put("end", endOffset).put("records_total", records);
    event.set("source_offset", JSON.valueToTree(sourceOffset));
    if (format == Format.progress) {
      out.printf(
          Locale.ROOT,
          "\rsync of %s: %,d record(s) read, unit %s committed",
          pipeline,
          records,
          unit);
      out.flush();
    } else {
      emit(event, "committed " + unit + " (source offset " + event.get("source_offset") + ")");
    }
  }

  synchronized void rejected(String position, String reason) {
    ObjectNode event = event("record_rejected");
    event.put("position", position).put("reason", reason);
    emit(event, "rejected " + position + ": " + reason);
  }

  synchronized void complete(long records, long units, String reason) {
    ObjectNode event = event("sync_complete");
    long millis = (System.nanoTime() - started) / 1_000_000;
    event
        .put("records", records)
        .put("units", units)
        .put("reason", reason)
        .put("duration_ms", millis);
    if (format == Format.progress) {
      out.println();
    }
    emit(
        event,
        String.format(
            Locale.ROOT,
            "sync of %s complete: %,d record(s) in %,d unit(s) in %.1f s (%s)",
            pipeline,
            records,
            units,
            millis / 1000.0,
            reason));
  }

  synchronized void failed(String reason) {
    ObjectNode event = event("sync_failed");
    event.put("reason", reason).put("duration_ms", (System.nanoTime() - started) / 1_000_000);
    if (format == Format.json) {
      out.println(event);
      out.flush();
    } else {
      if (format == Format.progress) {
        out.println();
      }
      err.println("skippr sync: " + reason);
      err.flush();
    }
  }

  private ObjectNode event(String name) {
    ObjectNode event = JSON.createObjectNode();
    event.put("event", name).put("pipeline", pipeline);
    return event;
  }

  private void emit(ObjectNode event, String line) {
    out.println(format == Format.json ? event.toString() : "skippr sync: " + line);
    out.flush();
  }
}
