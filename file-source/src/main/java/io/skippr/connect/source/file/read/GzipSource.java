package io.skippr.connect.source.file.read;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.zip.ZipException;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * The decompressed content of a gzip file (several concatenated members read as one). Positions
 * count decompressed bytes; gzip cannot seek, so resuming at a position decompresses and discards
 * the bytes before it (without parsing them).
 *
 * <p>The content is opened at the first read, so a file that is not gzip at all fails a read like
 * one that breaks later. A broken file fails with a {@link ZipException} (or an {@link
 * EOFException} when it ends early), whatever the decoder said; bytes after a member that are not a
 * member are an error too (the JDK's reader drops them, and with them any member whose header is
 * damaged, without a word).
 */
public final class GzipSource implements ByteSource {

  private static final int BUFFER = 64 * 1024;

  private final FileChannel channel;
  private final long start;
  private BufferedInputStream file;
  private InputStream member;
  private boolean started;
  private long position;

  /** The gzip content of {@code channel}, to be read from {@code position} on. */
  public GzipSource(FileChannel channel, long position) {
    this.channel = channel;
    this.start = position;
    this.position = position;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      if (file == null) {
        file = new BufferedInputStream(new ChannelStream(channel.position(0)), BUFFER);
        skipTo(start);
      }
      int n = next(b, off, len);
      if (n > 0) {
        position += n;
      }
      return n;
    } catch (ChannelFailure e) {
      throw e.failure;
    } catch (ZipException | EOFException e) {
      throw e;
    } catch (IOException e) {
      throw new ZipException(e.getMessage());
    }
  }

  /**
   * Decompressed bytes of the current member, or of the next one when it ended: one read never
   * spans two members, so the bytes of a whole member are handed out before the next one's header
   * can fail.
   */
  private int next(byte[] b, int off, int len) throws IOException {
    while (true) {
      if (member == null) {
        if (started && atEnd()) {
          return -1;
        }
        member =
            GzipCompressorInputStream.builder()
                .setInputStream(file)
                .setDecompressConcatenated(false)
                .get();
        started = true;
      }
      int n = member.read(b, off, len);
      if (n > 0) {
        return n;
      }
      member = null; // it left the file right after its trailer
    }
  }

  private boolean atEnd() throws IOException {
    file.mark(1);
    int c = file.read();
    file.reset();
    return c < 0;
  }

  /** Decompresses and discards the content before {@code target}. */
  private void skipTo(long target) throws IOException {
    position = 0;
    byte[] scratch = new byte[BUFFER];
    while (position < target) {
      int n = next(scratch, 0, (int) Math.min(scratch.length, target - position));
      if (n < 0) {
        return; // shorter than the position: the caller sees the end at once
      }
      position += n;
    }
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public boolean canGrow() {
    return false;
  }

  @Override
  public long size() {
    return -1;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** An I/O failure of the file itself, told apart from what the decoder makes of its bytes. */
  private static final class ChannelFailure extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient IOException failure;

    ChannelFailure(IOException failure) {
      super(failure);
      this.failure = failure;
    }
  }

  /** The file's bytes; its own failures are marked as such. */
  private static final class ChannelStream extends InputStream {
    private final InputStream in;

    ChannelStream(FileChannel channel) {
      this.in = Channels.newInputStream(channel);
    }

    @Override
    public int read() throws IOException {
      try {
        return in.read();
      } catch (IOException e) {
        throw new ChannelFailure(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return in.read(b, off, len);
      } catch (IOException e) {
        throw new ChannelFailure(e);
      }
    }
  }
}
