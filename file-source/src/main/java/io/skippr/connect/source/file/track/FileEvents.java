package io.skippr.connect.source.file.track;

/** What the catalog reports besides its state: for logs and metrics. */
public interface FileEvents {

  /** A file was shorter than its offset and is read again from its first byte. */
  void shrank(TrackedFile file, long size, long offset);

  /** A file disappeared before it was read to its end. */
  void vanished(TrackedFile file);

  /** A followed stream has no file for now (kept for copies that may appear). */
  void dormant(TrackedFile file);

  /** The catalog no longer tracks the file. */
  void forgotten(TrackedFile file);

  FileEvents NONE =
      new FileEvents() {
        @Override
        public void shrank(TrackedFile file, long size, long offset) {}

        @Override
        public void vanished(TrackedFile file) {}

        @Override
        public void dormant(TrackedFile file) {}

        @Override
        public void forgotten(TrackedFile file) {}
      };
}
