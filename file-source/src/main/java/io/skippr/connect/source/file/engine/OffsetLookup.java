package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.file.commit.OffsetMirror;
import io.skippr.connect.source.file.track.FileCatalog;
import io.skippr.connect.source.file.track.FileKey;
import io.skippr.connect.source.file.track.FileOffset;
import io.skippr.connect.source.file.track.TrackedFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where newly identified files go on: Kafka's committed offsets (one read for all of a listing's
 * new files); for a file Kafka has none of, the state store's mirrored offset; else the start. A
 * mirrored row that differs from Kafka's is repaired from Kafka.
 */
final class OffsetLookup {

  private static final Logger LOG = LoggerFactory.getLogger(OffsetLookup.class);

  private final FileCatalog catalog;
  private final OffsetMirror mirror;

  OffsetLookup(FileCatalog catalog, OffsetMirror mirror) {
    this.catalog = catalog;
    this.mirror = mirror;
  }

  void resolve(List<TrackedFile> files, OffsetStorageReader reader) {
    Set<Map<String, Object>> partitions = new LinkedHashSet<>();
    for (TrackedFile f : files) {
      for (FileKey key : catalog.lookupKeys(f)) {
        partitions.add(key.partition());
      }
    }
    Map<Map<String, Object>, Map<String, Object>> kafka =
        reader == null ? Map.of() : reader.offsets(new ArrayList<>(partitions));
    Map<String, FileOffset> byId = new HashMap<>();
    for (Map<String, Object> partition : partitions) {
      FileOffset offset = offset(partition, kafka.get(partition));
      if (offset != null) {
        byId.put(FileKey.idOf(partition), offset);
      }
    }
    for (TrackedFile f : files) {
      catalog.resolve(f, byId);
      LOG.debug("{} resumes at byte {}, line {}", f, f.position(), f.line());
    }
  }

  private FileOffset offset(Map<String, Object> partition, Map<String, Object> committed) {
    Map<String, Object> found = committed;
    if (found != null) {
      mirrorQuietly(partition, found);
    } else {
      Optional<Map<String, Object>> mirrored = readQuietly(partition);
      if (mirrored.isPresent()) {
        found = mirrored.get();
        LOG.info("{}: Kafka has no offset, resuming from the state store's {}", partition, found);
      }
    }
    if (found == null) {
      return null;
    }
    try {
      return FileOffset.fromMap(found);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "Ignoring the offset of {}: {}; the file is read from its start",
          partition,
          e.getMessage());
      return null;
    }
  }

  private void mirrorQuietly(Map<String, Object> partition, Map<String, Object> offset) {
    try {
      mirror.mirror(partition, offset);
    } catch (RuntimeException e) {
      LOG.warn("Cannot repair the mirrored offset of {}: {}", partition, e.toString());
    }
  }

  private Optional<Map<String, Object>> readQuietly(Map<String, Object> partition) {
    try {
      return mirror.read(partition);
    } catch (RuntimeException e) {
      LOG.warn("Cannot read the mirrored offset of {}: {}", partition, e.toString());
      return Optional.empty();
    }
  }
}
