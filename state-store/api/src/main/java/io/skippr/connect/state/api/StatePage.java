package io.skippr.connect.state.api;

import java.util.List;
import java.util.Optional;

/**
 * One page of a prefix scan, in ascending key order (UTF-8 byte order).
 *
 * @param entries the rows of this page
 * @param nextStartAfter the key to pass as {@code startAfter} for the next page; empty when this
 *     was the last page
 */
public record StatePage(List<StateEntry> entries, Optional<String> nextStartAfter) {
  public StatePage {
    entries = List.copyOf(entries);
  }

  public boolean hasMore() {
    return nextStartAfter.isPresent();
  }
}
