package io.skippr.connect.source.file.scan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;

/**
 * Fingerprints of the first bytes of a file's content (decompressed for gzip), which tell files
 * apart where names cannot: a renamed file keeps them, a file rewritten on a reused inode does not,
 * and a rotated copy (also a compressed one) has the same ones as its original.
 */
public final class Heads {

  private final int maxBytes;

  /**
   * @param maxBytes the most bytes a fingerprint covers
   */
  public Heads(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The first {@code min(size, maxBytes)} bytes: for files that are complete when read. */
  public Head content(FileStat file) throws IOException {
    byte[] first = read(file, maxBytes);
    return new Head(hash(first, first.length), first.length);
  }

  /**
   * A followed file's first line and its first {@code min(size, maxBytes)} bytes, both from one
   * read, so they are of the same content even when the file is truncated and written again
   * meanwhile; null while the first line is incomplete.
   */
  public Start followed(FileStat file) throws IOException {
    byte[] first = read(file, maxBytes);
    Head line = firstLine(first);
    return line == null ? null : new Start(line, new Head(hash(first, first.length), first.length));
  }

  /** A finished file's first bytes ({@link #content}), which are also its key. */
  public Start finished(FileStat file) throws IOException {
    Head content = content(file);
    return new Start(content, content);
  }

  /**
   * How a file begins.
   *
   * @param line what its key is made of: the first line of a followed file
   * @param content the first bytes a copy must share
   */
  public record Start(Head line, Head content) {}

  /**
   * The first line with its LF, or the first {@code maxBytes} bytes when no LF comes before them:
   * fixed once written, so a growing file keeps it. Null while the first line is incomplete.
   */
  private Head firstLine(byte[] first) {
    for (int i = 0; i < first.length; i++) {
      if (first[i] == '\n') {
        return new Head(hash(first, i + 1), i + 1);
      }
    }
    return first.length == maxBytes ? new Head(hash(first, first.length), first.length) : null;
  }

  /** The fingerprint of the first {@code length} bytes, or null when the file is shorter. */
  public String prefix(FileStat file, int length) throws IOException {
    byte[] first = read(file, length);
    return first.length < length ? null : hash(first, length);
  }

  /** Whether the file's first {@code head.length()} bytes have the fingerprint {@code head}. */
  public boolean matches(FileStat file, Head head) throws IOException {
    return head.hash().equals(prefix(file, head.length()));
  }

  /**
   * Whether the file open as {@code channel} (plain) still begins with {@code head}: false once it
   * was truncated, also when it was written again since.
   */
  public static boolean begins(FileChannel channel, Head head) throws IOException {
    byte[] first = readPlain(channel, head.length());
    return first.length == head.length() && head.hash().equals(hash(first, first.length));
  }

  private static byte[] read(FileStat file, int max) throws IOException {
    try (FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.READ)) {
      return file.compressed() ? readGzip(channel, max) : readPlain(channel, max);
    }
  }

  private static byte[] readPlain(FileChannel channel, int max) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(max);
    while (buf.hasRemaining() && channel.read(buf, buf.position()) > 0) {
      // positional reads until full or at the end
    }
    return Arrays.copyOf(buf.array(), buf.position());
  }

  /** Up to {@code max} decompressed bytes; a corrupt stream yields what came before it. */
  private static byte[] readGzip(FileChannel channel, int max) throws IOException {
    byte[] out = new byte[max];
    int n = 0;
    try (InputStream in =
        new GZIPInputStream(java.nio.channels.Channels.newInputStream(channel), 8192)) {
      int r;
      while (n < max && (r = in.read(out, n, max - n)) > 0) {
        n += r;
      }
    } catch (java.io.EOFException | java.util.zip.ZipException e) {
      // truncated or corrupt: the reader reports it with its position
    }
    return Arrays.copyOf(out, n);
  }

  static String hash(byte[] bytes, int length) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(bytes, 0, length);
      return HexFormat.of().formatHex(sha.digest(), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
