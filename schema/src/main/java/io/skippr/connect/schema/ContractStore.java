package io.skippr.connect.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the contracts of each pipeline in {@code
 * {root}/{tenant}/{workspace}/{pipeline}/metadata.json} on a local file system: {@code
 * {"formatVersion": 1, "contracts": [<contract>, ...]}}, one contract per namespace. Writes go to a
 * temporary file that is renamed into place, so a reader sees the old or the new file, never a
 * partial one.
 */
public final class ContractStore {
  /** The file name under the pipeline's directory. */
  public static final String FILE_NAME = "metadata.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path root;

  public ContractStore(Path root) {
    this.root = root;
  }

  /** Where the pipeline's contracts live. */
  public Path path(PipelineId id) {
    return root.resolve(id.tenant())
        .resolve(id.workspace())
        .resolve(id.pipeline())
        .resolve(FILE_NAME);
  }

  /** Replaces the pipeline's contracts. */
  public void save(PipelineId id, Collection<Contract> contracts) {
    Map<String, Contract> byNamespace = new LinkedHashMap<>();
    for (Contract contract : contracts) {
      if (byNamespace.put(contract.namespace(), contract) != null) {
        throw new IllegalArgumentException("two contracts for namespace " + contract.namespace());
      }
    }
    ObjectNode document = JSON.createObjectNode();
    document.put("formatVersion", Contract.FORMAT_VERSION);
    ArrayNode list = document.putArray("contracts");
    byNamespace.values().forEach(c -> list.add(c.toJsonNode()));
    write(path(id), document);
  }

  /** Adds the contract, or replaces the one with the same namespace, keeping the others. */
  public void put(PipelineId id, Contract contract) {
    List<Contract> contracts = new ArrayList<>(load(id));
    contracts.removeIf(c -> c.namespace().equals(contract.namespace()));
    contracts.add(contract);
    save(id, contracts);
  }

  /** The pipeline's contracts; empty when none were saved. */
  public List<Contract> load(PipelineId id) {
    Path file = path(id);
    JsonNode document;
    try {
      document = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    if (document == null || document.path("formatVersion").asInt(-1) != Contract.FORMAT_VERSION) {
      throw new IllegalArgumentException(
          file
              + ": format version "
              + (document == null ? "missing" : document.path("formatVersion"))
              + " is not supported (this version reads "
              + Contract.FORMAT_VERSION
              + ")");
    }
    List<Contract> contracts = new ArrayList<>();
    for (JsonNode node : document.path("contracts")) {
      try {
        contracts.add(Contract.fromJsonNode(node));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
    }
    return List.copyOf(contracts);
  }

  /** The contract of one namespace of the pipeline, if saved. */
  public Optional<Contract> load(PipelineId id, String namespace) {
    return load(id).stream().filter(c -> c.namespace().equals(namespace)).findFirst();
  }

  private static void write(Path file, JsonNode document) {
    try {
      Files.createDirectories(file.getParent());
      Path temp = Files.createTempFile(file.getParent(), "." + FILE_NAME, ".tmp");
      try {
        Files.write(temp, JSON.writeValueAsBytes(document));
        try {
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
