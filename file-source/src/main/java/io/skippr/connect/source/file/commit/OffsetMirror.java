package io.skippr.connect.source.file.commit;

import java.util.Map;
import java.util.Optional;

/** Committed source offsets copied outside Kafka (the state store), or nowhere. */
public interface OffsetMirror extends AutoCloseable {

  /** Writes a partition's committed offset (a row that did not change is not rewritten). */
  void mirror(Map<String, ?> partition, Map<String, ?> offset);

  /** The mirrored offset of a partition. */
  Optional<Map<String, Object>> read(Map<String, ?> partition);

  /** Applies offsets changed through Connect's REST API: null resets. */
  void alter(Map<? extends Map<String, ?>, ? extends Map<String, ?>> offsets);

  @Override
  void close();

  OffsetMirror NONE =
      new OffsetMirror() {
        @Override
        public void mirror(Map<String, ?> partition, Map<String, ?> offset) {}

        @Override
        public Optional<Map<String, Object>> read(Map<String, ?> partition) {
          return Optional.empty();
        }

        @Override
        public void alter(Map<? extends Map<String, ?>, ? extends Map<String, ?>> offsets) {}

        @Override
        public void close() {}
      };
}
