package io.skippr.connect.state.rocksdb;

import io.skippr.connect.state.api.StateStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB per directory per JVM, shared by reference count: all tasks of a Connect worker
 * load our plugins through one class loader and must not open the same directory twice, which
 * RocksDB's LOCK file forbids. Writers of one key serialise on a lock stripe, which makes
 * compare-and-set atomic across threads.
 */
final class SharedRocksDb {
  static final String OWNER_FILE = "skippr-owner";
  private static final int STRIPES = 64;
  private static final Map<Path, SharedRocksDb> OPEN = new HashMap<>();

  private final Path directory;
  private final Options options;
  private final WriteOptions writeOptions;
  private final RocksDB db;
  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed;
  private int references;

  private SharedRocksDb(Path directory, Options options, RocksDB db) {
    this.directory = directory;
    this.options = options;
    this.db = db;
    // Synchronous writes: a resume point must survive a power cut, not only a process crash.
    this.writeOptions = new WriteOptions().setSync(true);
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** Opens the directory, or shares the handle this JVM already has on it. */
  static SharedRocksDb acquire(Path directory) {
    Path real = realDirectory(directory);
    synchronized (OPEN) {
      SharedRocksDb shared = OPEN.get(real);
      if (shared == null) {
        shared = open(real);
        OPEN.put(real, shared);
      }
      shared.references++;
      return shared;
    }
  }

  /** Drops one reference; the last one closes RocksDB and frees the directory. */
  void release() {
    synchronized (OPEN) {
      if (--references > 0) {
        return;
      }
      OPEN.remove(directory);
      lifecycle.writeLock().lock();
      try {
        closed = true;
        db.close();
        writeOptions.close();
        options.close();
      } finally {
        lifecycle.writeLock().unlock();
      }
    }
  }

  /** A call on the open database; RocksDB's native handles must never be used after close. */
  @FunctionalInterface
  interface RocksCall<T> {
    T call(RocksDB db, WriteOptions writeOptions) throws RocksDBException;
  }

  <T> T run(String operation, RocksCall<T> call) {
    lifecycle.readLock().lock();
    try {
      if (closed) {
        throw new IllegalStateException("state store at " + directory + " is closed");
      }
      return call.call(db, writeOptions);
    } catch (RocksDBException e) {
      throw new StateStoreException(
          "RocksDB " + operation + " failed in " + directory + ": " + oneLine(e.getMessage()), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  Path directory() {
    return directory;
  }

  ReentrantLock lockFor(byte[] key) {
    return stripes[Math.floorMod(Arrays.hashCode(key), STRIPES)];
  }

  private static Path realDirectory(Path directory) {
    try {
      Files.createDirectories(directory);
      return directory.toRealPath();
    } catch (IOException e) {
      throw new StateStoreException(
          "cannot create state store directory " + directory + ": " + e.getMessage(), e);
    }
  }

  private static SharedRocksDb open(Path directory) {
    RocksDB.loadLibrary();
    Options options =
        new Options()
            .setCreateIfMissing(true)
            .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
            .setKeepLogFileNum(2)
            .setMaxLogFileSize(1 << 20);
    try {
      RocksDB db = RocksDB.open(options, directory.toString());
      recordOwner(directory);
      return new SharedRocksDb(directory, options, db);
    } catch (RocksDBException e) {
      options.close();
      throw openFailure(directory, e);
    }
  }

  private static StateStoreException openFailure(Path directory, RocksDBException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("lock hold by current process")) {
      return new StateStoreException(
          "State store directory "
              + directory
              + " is already open in this JVM through another class loader; install the "
              + "state store in one plugin only",
          e);
    }
    if (message.contains("LOCK")) {
      return new StateStoreException(
          "State store directory "
              + directory
              + " is in use by another process"
              + owner(directory)
              + "; RocksDB allows one process per directory: stop it, or give this one its own "
              + "store.rocksdb.path or DATA_DIR",
          e);
    }
    return new StateStoreException(
        "cannot open state store directory " + directory + ": " + oneLine(message), e);
  }

  /** Who holds the directory, for the error a second process gets (informational only). */
  private static void recordOwner(Path directory) {
    String owner = "pid " + ProcessHandle.current().pid() + " since " + Instant.now();
    Path tmp = directory.resolve(OWNER_FILE + ".tmp");
    try {
      Files.writeString(tmp, owner, StandardCharsets.UTF_8);
      Files.move(tmp, directory.resolve(OWNER_FILE), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // The owner file only improves an error message; the LOCK file is what protects the data.
    }
  }

  private static String owner(Path directory) {
    try {
      return " (" + oneLine(Files.readString(directory.resolve(OWNER_FILE)).strip()) + ")";
    } catch (IOException e) {
      return "";
    }
  }

  private static String oneLine(String text) {
    return String.valueOf(text).replaceAll("\\s+", " ");
  }
}
