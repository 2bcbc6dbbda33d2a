package io.skippr.connect.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Contracts on a local file system: {@code {root}/{tenant}/{workspace}/{pipeline}/metadata.json}.
 * Writes go to a temporary file that is renamed into place, so a reader sees the old or the new
 * file, never a partial one. {@link #put} holds a lock (threads of this JVM, and a file lock on
 * {@value #LOCK_NAME} next to the document for other processes) from reading to renaming.
 */
public final class ContractStore implements ContractStorage {
  /** The lock file {@link #put} uses, next to the document. */
  public static final String LOCK_NAME = "." + FILE_NAME + ".lock";

  private static final ConcurrentMap<Path, Object> JVM_LOCKS = new ConcurrentHashMap<>();

  private final Path root;

  public ContractStore(Path root) {
    this.root = root;
  }

  /** Where the pipeline's contracts live. */
  public Path path(PipelineId id) {
    return root.resolve(id.tenant())
        .resolve(id.workspace())
        .resolve(id.pipeline())
        .resolve(FILE_NAME);
  }

  @Override
  public String location(PipelineId id) {
    return path(id).toString();
  }

  @Override
  public void save(PipelineId id, Collection<Contract> contracts) {
    write(path(id), ContractDocument.encode(contracts));
  }

  @Override
  public void put(PipelineId id, Contract contract) {
    Path file = path(id).toAbsolutePath().normalize();
    synchronized (JVM_LOCKS.computeIfAbsent(file, f -> new Object())) {
      try {
        Files.createDirectories(file.getParent());
        try (FileChannel channel =
                FileChannel.open(
                    file.resolveSibling(LOCK_NAME),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          write(file, ContractDocument.encode(ContractDocument.with(load(id), contract)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot update " + file + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public List<Contract> load(PipelineId id) {
    Path file = path(id);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return ContractDocument.decode(bytes, file.toString());
  }

  private static void write(Path file, byte[] document) {
    try {
      Files.createDirectories(file.getParent());
      Path temp = Files.createTempFile(file.getParent(), "." + FILE_NAME, ".tmp");
      try {
        Files.write(temp, document);
        try {
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
