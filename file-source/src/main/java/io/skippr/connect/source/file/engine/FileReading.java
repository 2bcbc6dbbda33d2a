package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.file.format.RecordParser;
import io.skippr.connect.source.file.read.ByteSource;
import io.skippr.connect.source.file.read.ChannelSource;
import io.skippr.connect.source.file.read.Frame;
import io.skippr.connect.source.file.read.GzipSource;
import io.skippr.connect.source.file.read.RecordFramer;
import io.skippr.connect.source.file.scan.FileStat;
import io.skippr.connect.source.file.scan.FileStats;
import io.skippr.connect.source.file.scan.Head;
import io.skippr.connect.source.file.scan.Heads;
import io.skippr.connect.source.file.track.TrackedFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One open file being read: its content from the tracked position on, cut into records and parsed.
 * Opening checks that the name still holds the listed file (same inode), skips a UTF-8 byte order
 * mark at the start, and for a CSV file resumed mid-way reads its header row first.
 */
final class FileReading implements Closeable {

  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final FileChannel channel;
  private final ByteSource source;
  private final RecordFramer framer;
  private final RecordParser parser;
  private final AtomicInteger open;

  private FileReading(
      FileChannel channel,
      ByteSource source,
      RecordFramer framer,
      RecordParser parser,
      AtomicInteger open) {
    this.channel = channel;
    this.source = source;
    this.framer = framer;
    this.parser = parser;
    this.open = open;
    open.incrementAndGet();
  }

  /**
   * Opens the tracked file's current file at its position (moved past a byte order mark).
   *
   * @param open counts the files open
   */
  static FileReading open(TrackedFile f, ReadSettings settings, AtomicInteger open)
      throws IOException {
    FileStat stat = f.current();
    int bom = bomLength(stat);
    if (f.position() < bom) {
      f.position(bom, 0);
    }
    RecordParser parser = settings.parsers().get();
    if (parser.expectsHeader() && f.position() > bom) {
      readHeader(stat, parser, settings, bom);
    }
    FileChannel channel = FileChannel.open(stat.path(), StandardOpenOption.READ);
    try {
      FileStat check = FileStats.of(stat.path(), stat.relative());
      if (check == null || !check.handle().equals(stat.handle())) {
        throw new StaleFileException(stat.path() + " is no longer the file that was listed");
      }
      ByteSource source = source(stat, channel, f.position());
      RecordFramer framer =
          new RecordFramer(
              source, settings.boundaries().get(), settings.maxLineBytes(), f.line() + 1);
      return new FileReading(channel, source, framer, parser, open);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static ByteSource source(FileStat stat, FileChannel channel, long position)
      throws IOException {
    return stat.compressed()
        ? new GzipSource(channel, position)
        : new ChannelSource(channel, position);
  }

  /** Reads the first record (the header row) of a file whose reading resumes after it. */
  private static void readHeader(FileStat stat, RecordParser parser, ReadSettings settings, int bom)
      throws IOException {
    try (FileChannel channel = FileChannel.open(stat.path(), StandardOpenOption.READ);
        ByteSource source = source(stat, channel, bom)) {
      Frame header =
          new RecordFramer(source, settings.boundaries().get(), settings.maxLineBytes(), 1)
              .next(true);
      if (header != null) {
        parser.header(header);
      }
    }
  }

  /** 3 when the content starts with a UTF-8 byte order mark, else 0. */
  private static int bomLength(FileStat stat) throws IOException {
    try (FileChannel channel = FileChannel.open(stat.path(), StandardOpenOption.READ);
        ByteSource source = source(stat, channel, 0)) {
      byte[] first = new byte[3];
      int n = 0;
      int r;
      while (n < 3 && (r = source.read(first, n, 3 - n)) > 0) {
        n += r;
      }
      return n == 3 && first[0] == BOM[0] && first[1] == BOM[1] && first[2] == BOM[2] ? 3 : 0;
    } catch (java.util.zip.ZipException | java.io.EOFException e) {
      return 0; // corrupt gzip: reading it reports the problem with its position
    }
  }

  /** The next record, or null when there is none now. */
  Frame next(boolean finished) throws IOException {
    return framer.next(finished);
  }

  RecordParser parser() {
    return parser;
  }

  /** True when bytes were appended beyond what has been read. */
  boolean hasMore() throws IOException {
    if (!source.canGrow()) {
      return false;
    }
    framer.resume();
    return source.size() > source.position();
  }

  /** True when the file is now shorter than what was read of it (truncated under us). */
  boolean shrank() throws IOException {
    return source.canGrow() && source.size() < source.position();
  }

  /**
   * Whether the open plain file still begins with {@code head}. Checked after reading: a file
   * truncated and written again before the read gave lines of its new content at the old position.
   */
  boolean stillBegins(Head head) throws IOException {
    return !source.canGrow() || head == null || Heads.begins(channel, head);
  }

  /** True when the start of a line without its LF is held. */
  boolean holdsPartialRecord() {
    return framer.holdsPartialRecord();
  }

  boolean canGrow() {
    return source.canGrow();
  }

  /** Bytes read from the file so far in this reading (for metrics). */
  long bytesConsumed() {
    return source.position();
  }

  @Override
  public void close() throws IOException {
    open.decrementAndGet();
    source.close();
  }
}
