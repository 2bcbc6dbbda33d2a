package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.file.commit.CommittedOffsets;
import io.skippr.connect.source.file.format.Parsed;
import io.skippr.connect.source.file.format.RecordParser;
import io.skippr.connect.source.file.metrics.FileSourceMetrics;
import io.skippr.connect.source.file.read.Frame;
import io.skippr.connect.source.file.records.FileRecords;
import io.skippr.connect.source.file.records.FileRejections;
import io.skippr.connect.source.file.track.Phase;
import io.skippr.connect.source.file.track.TrackedFile;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.ZipException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads records of one file into a poll's batch: each record carries the offset after it; a line
 * that cannot be used becomes a rejection (to the rejections topic when there is one) and reading
 * goes on with the next line. At the end of a file it moves the file on: following (waiting for
 * more lines) or drained (waiting for its last offset to be committed).
 */
final class BatchReader {

  private static final Logger LOG = LoggerFactory.getLogger(BatchReader.class);

  /** Rejections logged at WARN per file; the rest at DEBUG (all are counted). */
  private static final int LOGGED_REJECTIONS = 10;

  private final ReadSettings settings;
  private final boolean followed;
  private final FileRecords records;
  private final FileRejections rejections;
  private final CommittedOffsets committed;
  private final FileSourceMetrics metrics;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<String, Integer> logged = new java.util.HashMap<>();

  BatchReader(
      ReadSettings settings,
      boolean followed,
      FileRecords records,
      FileRejections rejections,
      CommittedOffsets committed,
      FileSourceMetrics metrics) {
    this.settings = settings;
    this.followed = followed;
    this.records = records;
    this.rejections = rejections;
    this.committed = committed;
    this.metrics = metrics;
    metrics.gauge("files-open", "Files open for reading", open::get);
  }

  /**
   * Reads from {@code f} until the budget is spent or the file has nothing more now.
   *
   * @param finished true when an unterminated last line is to be read as it is
   * @return false when the file could not be opened because its name holds another file now
   */
  boolean read(TrackedFile f, List<SourceRecord> out, Budget budget, boolean finished, long now) {
    FileReading reading;
    try {
      reading = opened(f);
    } catch (StaleFileException e) {
      LOG.debug("{}", e.getMessage());
      return false;
    } catch (IOException e) {
      fail(f, "cannot open", e);
      return true;
    }
    long bytesBefore = reading.bytesConsumed();
    Mark mark = new Mark(out.size(), f.position(), f.line(), f.emittedPosition());
    int sent = 0;
    try {
      while (!budget.exhausted()) {
        Frame frame = reading.next(finished || !reading.canGrow());
        if (frame == null) {
          ended(f, reading);
          break;
        }
        sent += take(f, reading.parser(), frame, out, budget, now) ? 1 : 0;
      }
    } catch (ZipException | EOFException e) {
      brokenGzip(f, out, e, now);
    } catch (IOException e) {
      fail(f, "cannot read", e);
    }
    long bytes = reading.bytesConsumed() - bytesBefore;
    if (bytes > 0 && followed && !keptItsStart(f, reading, out, mark)) {
      return false;
    }
    if (bytes > 0) {
      f.quietSince(now);
    }
    metrics.read(Math.max(0, bytes), sent);
    return true;
  }

  /** Where a read started: what to go back to when its records are dropped. */
  private record Mark(int records, long position, long line, long emitted) {}

  /**
   * Whether a followed file still begins as it did when it was found, checked after reading from
   * it: a file truncated and written again before the read (copytruncate, then the writer's next
   * lines) gave lines of its new content at the old position, which are another file's. Those
   * records are dropped and the position restored; the next listing tells what the file is now (its
   * copy goes on from the position, the new content is a new file read from its start).
   */
  private boolean keptItsStart(
      TrackedFile f, FileReading reading, List<SourceRecord> out, Mark mark) {
    if (f.reading() != reading) {
      return true; // closed at its end or on an error: nothing more is read through it
    }
    try {
      if (reading.stillBegins(f.verify())) {
        return true;
      }
    } catch (IOException e) {
      return true; // cannot tell now: the next listing compares the file's first bytes
    }
    LOG.info(
        "{} no longer begins as it did (truncated and written again): the {} records just read"
            + " are dropped and the next listing tells what it holds now",
        f,
        out.size() - mark.records());
    out.subList(mark.records(), out.size()).clear();
    f.position(mark.position(), mark.line());
    f.emitted(mark.emitted());
    f.closeReading();
    f.doubt();
    if (f.phase() == Phase.FOLLOWING) {
      f.moveTo(Phase.READING);
    }
    return false;
  }

  private FileReading opened(TrackedFile f) throws IOException {
    if (f.reading() instanceof FileReading r) {
      return r;
    }
    FileReading r = FileReading.open(f, settings, open);
    f.reading(r);
    return r;
  }

  /** Turns one record into a record or a rejection; true when a record was sent. */
  private boolean take(
      TrackedFile f,
      RecordParser parser,
      Frame frame,
      List<SourceRecord> out,
      Budget budget,
      long now) {
    f.position(frame.endPosition(), frame.line() + frame.lines() - 1);
    budget.spend(frame.length(), false);
    if (parser.expectsHeader()) {
      String problem = parser.header(frame);
      if (problem != null) {
        LOG.warn("{}: {}; its rows are rejected", f, problem);
      }
      return false;
    }
    Parsed parsed =
        frame.kind() == Frame.Kind.OVERLONG
            ? Parsed.rejected("line longer than " + settings.maxLineBytes() + " bytes")
            : parser.parse(frame);
    if (parsed == null) {
      return false;
    }
    Map<String, Object> offset = f.offset(followed).toMap();
    if (!parsed.accepted()) {
      reject(f, frame, parsed.rejection(), offset, out, budget, now);
      return false;
    }
    SourceRecord record;
    try {
      record = records.record(f.partition(), offset, parsed, now);
    } catch (DataException e) {
      reject(
          f, frame, "value cannot be written as JSON: " + e.getMessage(), offset, out, budget, now);
      return false;
    }
    out.add(record);
    sent(f, budget);
    return true;
  }

  private void reject(
      TrackedFile f,
      Frame frame,
      String reason,
      Map<String, Object> offset,
      List<SourceRecord> out,
      Budget budget,
      long now) {
    metrics.rejected();
    int count = logged.merge(f.key().id(), 1, Integer::sum);
    if (count <= LOGGED_REJECTIONS) {
      LOG.warn(
          "{} line {} (byte {}) rejected: {}{}",
          f,
          frame.line(),
          frame.startPosition(),
          reason,
          count == LOGGED_REJECTIONS
              ? " (further rejections of this file are logged at DEBUG)"
              : "");
    } else {
      LOG.debug(
          "{} line {} (byte {}) rejected: {}", f, frame.line(), frame.startPosition(), reason);
    }
    if (rejections == null) {
      return;
    }
    boolean cut = frame.kind() == Frame.Kind.OVERLONG;
    out.add(
        rejections.record(
            f.partition(),
            offset,
            new FileRejections.Where(
                f.current().relative(), f.key().id(), frame.line(), frame.startPosition()),
            reason,
            new FileRejections.Input(frame.buf(), frame.start(), frame.length(), cut),
            now));
    sent(f, budget);
  }

  private void sent(TrackedFile f, Budget budget) {
    f.emitted(f.position());
    committed.watch(f.partition());
    budget.spend(0, true);
  }

  /** No record now: a followed plain file waits for more, anything else is read to its end. */
  private void ended(TrackedFile f, FileReading reading) {
    if (followed && reading.canGrow()) {
      f.moveTo(Phase.FOLLOWING);
      return;
    }
    f.closeReading();
    f.moveTo(followed ? Phase.DONE : Phase.DRAINED);
  }

  /** A gzip file that ends early or is corrupt: what came before it stands, the rest is lost. */
  private void brokenGzip(TrackedFile f, List<SourceRecord> out, IOException e, long now) {
    String reason = "gzip content cannot be read on at byte " + f.position() + ": " + e;
    Frame where =
        new Frame(
            Frame.Kind.OVERLONG, new byte[0], 0, 0, f.position(), f.position(), f.line() + 1, 0);
    reject(f, where, reason, f.offset(followed).toMap(), out, new Budget(1, 1), now);
    f.closeReading();
    f.moveTo(followed ? Phase.DONE : Phase.DRAINED);
  }

  private void fail(TrackedFile f, String what, IOException e) {
    LOG.warn("{}: {} ({}); trying again at the next listing", f, what, e.toString());
    f.closeReading();
    f.moveTo(Phase.FAILED);
  }

  /** Forgets per-file state of a file no longer tracked. */
  void forget(TrackedFile f) {
    logged.remove(f.key().id());
  }
}
