package io.skippr.connect.lake.storage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** A lake in memory, for tests about buffering rather than storage (no fsync per file). */
public final class InMemoryLakeStorage implements LakeStorage {
  private final TreeMap<String, byte[]> objects = new TreeMap<>();

  @Override
  public synchronized boolean createIfAbsent(String key, byte[] content) {
    return objects.putIfAbsent(StorageKeys.check(key), content.clone()) == null;
  }

  @Override
  public PendingObject create(String key) {
    StorageKeys.check(key);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    return new PendingObject() {
      @Override
      public String key() {
        return key;
      }

      @Override
      public OutputStream stream() {
        return buffer;
      }

      @Override
      public void complete() {
        synchronized (InMemoryLakeStorage.this) {
          objects.put(key, buffer.toByteArray());
        }
      }

      @Override
      public void abort() {}
    };
  }

  @Override
  public synchronized byte[] read(String key) throws IOException {
    byte[] content = objects.get(key);
    if (content == null) {
      throw new NoSuchFileException(key);
    }
    return content.clone();
  }

  @Override
  public synchronized List<String> list(String prefix) {
    List<String> keys = new ArrayList<>();
    for (String key : objects.tailMap(prefix, true).keySet()) {
      if (!key.startsWith(prefix)) {
        break;
      }
      keys.add(key);
    }
    return keys;
  }

  @Override
  public List<String> listIncomplete(String prefix) {
    return List.of();
  }

  @Override
  public void discardIncomplete(String key) {}

  @Override
  public synchronized void delete(String key) {
    objects.remove(key);
  }

  @Override
  public synchronized void move(String from, String to) throws IOException {
    byte[] content = objects.remove(from);
    if (content == null) {
      throw new NoSuchFileException(from);
    }
    objects.put(StorageKeys.check(to), content);
  }

  @Override
  public synchronized boolean exists(String key) {
    return objects.containsKey(key);
  }

  @Override
  public String location() {
    return "memory:/";
  }
}
