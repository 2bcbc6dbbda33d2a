package io.skippr.connect.state.api;

import io.skippr.connect.common.ProcessEnvironment;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Where settings outside the connector config come from; tests pass their own. */
public interface StoreEnvironment {

  /** An environment variable, empty when unset or blank. */
  Optional<String> variable(String name);

  /** The directory relative paths ({@code ./data}, {@code skippr.yml}) are resolved against. */
  Path workingDirectory();

  /**
   * The process environment (with what a launcher such as {@code skippr local} set for the whole
   * process, see {@link ProcessEnvironment}) and working directory.
   */
  static StoreEnvironment system() {
    return of(ProcessEnvironment.variables(), Path.of("").toAbsolutePath());
  }

  /** A fixed environment, for tests and for embedding. */
  static StoreEnvironment of(Map<String, String> variables, Path workingDirectory) {
    Map<String, String> copy = Map.copyOf(variables);
    Path dir = workingDirectory.toAbsolutePath();
    return new StoreEnvironment() {
      @Override
      public Optional<String> variable(String name) {
        return Optional.ofNullable(copy.get(name)).filter(v -> !v.isBlank());
      }

      @Override
      public Path workingDirectory() {
        return dir;
      }
    };
  }
}
