package io.skippr.connect.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code skippr.yml}: where it is and what it says. The one reader of the file for every command
 * and plugin; each takes the part it needs (the CLI its {@code pipelines}, the state store its
 * {@code skippr.store.*} settings).
 */
public final class SkipprFile {
  /** The file name looked for in the working directory. */
  public static final String FILE_NAME = "skippr.yml";

  /** Environment variable naming the file. */
  public static final String CONFIG_ENV = "SKIPPR_CONFIG";

  private final Path path;
  private final JsonNode root;
  private final Map<String, String> scalars;

  private SkipprFile(Path path, JsonNode root) {
    this.path = path;
    this.root = root;
    try {
      this.scalars = FlatSettings.of(root);
    } catch (FlatSettings.Refused e) {
      throw new SkipprFileException(path + ": " + e.getMessage(), e);
    }
  }

  /** Why the file cannot be used: names the file and, for bad YAML, the line. */
  public static final class SkipprFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SkipprFileException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The file to read: {@code option} (a command's {@code --config}) when given, else {@code
   * $SKIPPR_CONFIG}, else {@code skippr.yml} in the working directory; relative paths are resolved
   * against the working directory.
   */
  public static Path locate(Path option, Map<String, String> env, Path workingDir) {
    if (option != null) {
      return workingDir.resolve(option);
    }
    String fromEnv = env.get(CONFIG_ENV);
    return fromEnv != null && !fromEnv.isBlank()
        ? workingDir.resolve(fromEnv)
        : workingDir.resolve(FILE_NAME);
  }

  /** Whether the file was named explicitly (by {@code --config} or {@code $SKIPPR_CONFIG}). */
  public static boolean named(Path option, Map<String, String> env) {
    String fromEnv = env.get(CONFIG_ENV);
    return option != null || (fromEnv != null && !fromEnv.isBlank());
  }

  /** Longest file read: the YAML parser's own limit (3 Mi code points) in bytes. */
  static final int MAX_BYTES = 3 << 20;

  /**
   * Reads the file; empty when it does not exist. Only a regular file is read, and at most {@link
   * #MAX_BYTES} of it: a FIFO would block and {@code /dev/zero} fill the heap.
   *
   * @throws SkipprFileException when it cannot be read, is no regular file, is larger, is not UTF-8
   *     text, is not valid YAML or gives a setting both with dots and nested
   */
  public static Optional<SkipprFile> readIfPresent(Path path) {
    if (!Files.exists(path)) {
      return Optional.empty();
    }
    if (!Files.isRegularFile(path)) {
      throw new SkipprFileException(path + " is not a regular file", null);
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(path)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new SkipprFileException("cannot read " + path + ": " + e.getMessage(), e);
    }
    if (bytes.length > MAX_BYTES) {
      throw new SkipprFileException(path + " is larger than " + (MAX_BYTES >> 20) + " MiB", null);
    }
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      return Optional.of(parse(path, text));
    } catch (CharacterCodingException e) {
      throw new SkipprFileException(path + " is not UTF-8 text", e);
    }
  }

  /** Parses the text of the file at {@code path}. */
  public static SkipprFile parse(Path path, String text) {
    try {
      return new SkipprFile(path, SkipprYamlTree.read(text));
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
      throw new SkipprFileException(
          path + ": not valid YAML" + where + ": " + e.getOriginalMessage(), e);
    } catch (SkipprYamlTree.Refused e) {
      throw new SkipprFileException(path + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new SkipprFileException(path + ": not valid YAML: " + e.getMessage(), e);
    }
  }

  public Path path() {
    return path;
  }

  /** The whole document. */
  public JsonNode root() {
    return root;
  }

  /**
   * The scalar at a dotted path such as {@code skippr.store.type}, whether the file nests it
   * ({@code skippr: {store: {type: dynamodb}}}, in block or flow style) or spells it with dots;
   * empty when absent, null or a mapping.
   */
  public Optional<String> scalar(String dottedPath) {
    return Optional.ofNullable(scalars().get(dottedPath));
  }

  /**
   * Every setting of the document by dotted path, as {@link FlatSettings#of} reads them (a list is
   * its items joined with commas; a list with no flat form is left out).
   */
  public Map<String, String> scalars() {
    return new LinkedHashMap<>(scalars);
  }
}
