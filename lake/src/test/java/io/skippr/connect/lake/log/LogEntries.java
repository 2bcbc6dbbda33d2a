package io.skippr.connect.lake.log;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Log entries of every kind with values as writers write them, for property-based tests. */
final class LogEntries {
  private LogEntries() {}

  /** Any text a writer could put in a field: letters of every script, quotes, controls. */
  static Arbitrary<String> text() {
    return Arbitraries.strings().withCharRange('\u0000', '\ud7ff').ofMaxLength(24);
  }

  static Arbitrary<String> key() {
    return text().filter(s -> !s.isBlank());
  }

  static Arbitrary<List<String>> keys() {
    return key().list().ofMaxSize(4);
  }

  private static Arbitrary<Long> epoch() {
    return Arbitraries.longs().between(1, Long.MAX_VALUE);
  }

  private static Arbitrary<Long> anyLong() {
    return Arbitraries.longs();
  }

  /** A unit's id, its first and its last offset. */
  private record Unit(String id, long start, long end) {}

  private static Arbitrary<Unit> unit() {
    return Combinators.combine(
            text().filter(t -> !t.isBlank()),
            Arbitraries.integers().between(0, 9),
            Arbitraries.longs().between(0, 4),
            Arbitraries.longs().between(0, 1L << 50),
            Arbitraries.longs().between(0, 100_000))
        .as(
            (topic, partition, generation, start, length) ->
                new Unit(
                    LakeLayout.compactionId(topic, partition, generation, start, start + length),
                    start,
                    start + length));
  }

  static Arbitrary<LiveFile> liveFile() {
    return Combinators.combine(
            key(),
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            Arbitraries.strings().withChars("0123456789abcdef").ofLength(64),
            text(),
            anyLong().injectNull(0.5))
        .as(LiveFile::new);
  }

  private static Arbitrary<LogEntry.SourcePosition> source() {
    Arbitrary<Object> value =
        Arbitraries.oneOf(text(), Arbitraries.integers(), Arbitraries.of(true, false));
    Arbitrary<Map<String, Object>> map = Arbitraries.maps(text(), value).ofMaxSize(3);
    return Combinators.combine(map, map).as(LogEntry.SourcePosition::new).injectNull(0.6);
  }

  static Arbitrary<LogEntry> any() {
    return Arbitraries.oneOf(
        Combinators.combine(epoch(), text().injectNull(0.1), anyLong()).as(LogEntry.Epoch::new),
        Combinators.combine(unit(), epoch(), anyLong(), text(), keys())
            .as((u, e, w, c, f) -> new LogEntry.Intent(u.id(), u.start(), u.end(), e, w, c, f)),
        commit(),
        Combinators.combine(key(), epoch(), text().injectNull(0.2)).as(LogEntry.Abort::new),
        checkpoint(),
        Combinators.combine(
                epoch(),
                Arbitraries.longs().between(1, 1000),
                Arbitraries.longs().between(-1, Long.MAX_VALUE),
                Arbitraries.longs().between(-1, Long.MAX_VALUE),
                text().injectNull(0.2))
            .as(LogEntry.Generation::new),
        compactIntent(),
        Combinators.combine(
                key(), epoch(), anyLong(), keys(), liveFile().list().ofMaxSize(2), anyLong())
            .as(LogEntry.CompactCommit::new),
        Combinators.combine(key(), epoch(), text().injectNull(0.2)).as(LogEntry.CompactAbort::new),
        Combinators.combine(epoch(), anyLong(), keys(), text().injectNull(0.2))
            .as(LogEntry.Expire::new),
        Combinators.combine(epoch(), keys()).as(LogEntry.Purge::new));
  }

  private static Arbitrary<LogEntry> commit() {
    return Combinators.combine(
            unit(), epoch(), liveFile().list().ofMaxSize(3), source(), keys(), anyLong())
        .as(
            (u, e, files, source, replaces, after) ->
                new LogEntry.Commit(u.id(), u.start(), u.end(), e, files, source, replaces, after));
  }

  private static Arbitrary<LogEntry.CompactIntent> compactIntent() {
    return Combinators.combine(key(), epoch(), anyLong(), keys(), keys(), text().injectNull(0.2))
        .as(LogEntry.CompactIntent::new);
  }

  private static Arbitrary<LogEntry> checkpoint() {
    Arbitrary<CommittedUnit> last =
        Combinators.combine(unit(), epoch(), source())
            .as((u, e, s) -> new CommittedUnit(u.id(), u.start(), u.end(), e, s))
            .injectNull(0.3);
    Arbitrary<List<LogEntry.RetiredFile>> retired =
        Combinators.combine(key(), anyLong()).as(LogEntry.RetiredFile::new).list().ofMaxSize(2);
    return Combinators.combine(
            epoch(),
            last,
            liveFile().list().ofMaxSize(3),
            text().list().ofMaxSize(3),
            Arbitraries.longs().between(0, 1000),
            Arbitraries.longs().between(0, Long.MAX_VALUE).injectNull(0.5),
            retired,
            compactIntent().injectNull(0.7))
        .as(
            (e, l, files, tables, generation, start, gone, merge) ->
                new LogEntry.Checkpoint(e, e, l, files, tables, generation, start, gone, merge));
  }
}
