package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.audit.Finding.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What lake maintenance left in a TP's log, as notes: a merge under way, and what retention
 * expired. Neither changes the units, so neither is a gap or an overlap.
 */
final class MaintenanceAudit {
  /**
   * The end of a file's compaction id: {@code +[g{n}+]{start}+{end}}, maybe {@code +m{hash}} for a
   * merge's output, then the codec and {@code .parquet}.
   */
  private static final Pattern RANGE =
      Pattern.compile("\\+(?:g\\d+\\+)?(\\d+)\\+(\\d+)(?:\\+m[0-9a-f]+)?\\.[^/+]*parquet$");

  private MaintenanceAudit() {}

  static List<Finding> findings(TpLake lake) {
    List<Finding> findings = new ArrayList<>();
    TpLake.Merge merge = lake.maintenance().merge();
    if (merge != null) {
      findings.add(
          Finding.note(
              Kind.MERGING,
              "merge "
                  + merge.id()
                  + " of "
                  + merge.inputs().size()
                  + " file(s) is planned but not committed: under way, or left by a crash (the"
                  + " sink abandons it when it opens the partition); its inputs stay live"));
    }
    for (TpLake.Expiry expiry : lake.maintenance().expiries()) {
      findings.add(expired(expiry));
    }
    return findings;
  }

  private static Finding expired(TpLake.Expiry expiry) {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (String file : expiry.files()) {
      Matcher range = RANGE.matcher(file);
      if (range.find()) {
        start = Math.min(start, Long.parseLong(range.group(1)));
        end = Math.max(end, Long.parseLong(range.group(2)));
      }
    }
    String message =
        "retention expired "
            + expiry.files().size()
            + " file(s) at "
            + Instant.ofEpochMilli(expiry.atMs())
            + (start <= end ? " (rows of offsets within " + start + ".." + end + ")" : "")
            + ": "
            + expiry.reason()
            + "; their units stay committed, so the offsets are no gap";
    if (start > end) {
      return Finding.note(Kind.RETENTION_EXPIRED, message);
    }
    return Finding.range(Kind.RETENTION_EXPIRED, message, start, end, null);
  }
}
