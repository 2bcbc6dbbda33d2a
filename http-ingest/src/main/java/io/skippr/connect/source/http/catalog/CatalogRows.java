package io.skippr.connect.source.http.catalog;

/**
 * Small versioned rows by id: the catalog's storage. Versions start at 1 and grow by one per write;
 * an absent row has version 0.
 */
interface CatalogRows extends AutoCloseable {

  /**
   * A row as read.
   *
   * @param value null when absent
   */
  record Row(long version, byte[] value) {
    static final Row ABSENT = new Row(0, null);

    boolean exists() {
      return value != null;
    }
  }

  /**
   * @throws CatalogException when the storage cannot be read
   */
  Row get(String id);

  /**
   * Writes if the row's version is still {@code expectedVersion} (0 = absent).
   *
   * @return false when another writer wrote first
   * @throws CatalogException when the storage cannot be written
   */
  boolean compareAndSet(String id, long expectedVersion, byte[] value);

  /** Where the rows live, for log lines. */
  String describe();

  @Override
  void close();
}
