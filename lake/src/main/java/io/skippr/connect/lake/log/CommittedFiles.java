package io.skippr.connect.lake.log;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;

/**
 * Reads committed files only as their commit recorded them: the size and SHA-256 the log lists.
 * Whatever reads a committed file to write from it (a merge) reads it here, so a file damaged or
 * replaced in storage is never carried into another.
 */
public final class CommittedFiles {
  /** A committed file whose bytes are not the ones its commit recorded. */
  public static final class DamagedFileException extends IOException {
    private static final long serialVersionUID = 1L;

    DamagedFileException(String message) {
      super(message);
    }
  }

  private CommittedFiles() {}

  /**
   * The file's bytes, checked against its commit.
   *
   * @throws DamagedFileException when its size or SHA-256 differ from what the log records
   * @throws java.nio.file.NoSuchFileException when storage does not have it
   */
  public static byte[] read(LakeStorage storage, LiveFile file) throws IOException {
    byte[] bytes = storage.read(file.key());
    String problem = problem(file, bytes);
    if (problem != null) {
      throw new DamagedFileException(
          storage.location()
              + file.key()
              + " is not the file its commit recorded: "
              + problem
              + ". It was replaced or damaged in storage; restore it from a backup or an earlier"
              + " version of the object (see \"A damaged lake\" in docs/lake-format.md)");
    }
    return bytes;
  }

  /** What differs between the bytes and the file's commit, or null when nothing does. */
  public static String problem(LiveFile file, byte[] bytes) {
    if (bytes.length != file.bytes()) {
      return bytes.length + " bytes, the log records " + file.bytes();
    }
    String sha256 = Sha256.hex(bytes);
    if (!sha256.equals(file.sha256())) {
      return "sha256 " + sha256 + ", the log records " + file.sha256();
    }
    return null;
  }
}
