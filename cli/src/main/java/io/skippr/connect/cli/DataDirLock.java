package io.skippr.connect.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Holds a data directory for one running stack. Two stacks on one directory would run two KRaft
 * controllers on one metadata log and two processes on one RocksDB, so the second is refused before
 * it opens anything, naming the holder. The lock is the operating system's, so it ends with the
 * process however the process ends.
 */
final class DataDirLock implements AutoCloseable {
  static final String FILE_NAME = ".skippr-local.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the directory, recording who holds it.
   *
   * @throws StartupException naming the holder when another process holds it
   */
  static DataDirLock take(Path dataDir, String command) {
    Path file = dataDir.resolve(FILE_NAME);
    FileChannel channel = null;
    try {
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
        channel.close();
        throw new StartupException(
            "data directory "
                + dataDir
                + " is in use by "
                + (holder.isEmpty() ? "another process" : holder)
                + "; stop it first or choose another --data-dir");
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(holder(command).getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(true);
      return new DataDirLock(channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StartupException("cannot lock data directory " + dataDir + ": " + e, e);
    }
  }

  private static String holder(String command) {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "this host";
    }
    return command
        + " (pid "
        + ProcessHandle.current().pid()
        + " on "
        + host
        + ", started "
        + Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime())
        + ")\n";
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // the lock is gone with the channel either way
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
