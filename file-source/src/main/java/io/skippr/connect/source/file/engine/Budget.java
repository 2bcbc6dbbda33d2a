package io.skippr.connect.source.file.engine;

/** What one poll may still return: records and bytes of content. */
final class Budget {

  private int records;
  private long bytes;

  Budget(int records, long bytes) {
    this.records = records;
    this.bytes = bytes;
  }

  void spend(long byteCount, boolean record) {
    bytes -= byteCount;
    if (record) {
      records--;
    }
  }

  boolean exhausted() {
    return records <= 0 || bytes <= 0;
  }
}
