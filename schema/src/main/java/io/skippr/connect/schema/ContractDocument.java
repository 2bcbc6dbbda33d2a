package io.skippr.connect.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pipeline's {@code metadata.json}: {@code {"formatVersion": 1, "contracts": [<contract>, ...]}},
 * one contract per namespace, in the order they were saved.
 */
public final class ContractDocument {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ContractDocument() {}

  /**
   * The document holding {@code contracts}.
   *
   * @throws IllegalArgumentException when two contracts share a namespace
   */
  public static byte[] encode(Collection<Contract> contracts) {
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
    try {
      return JSON.writeValueAsBytes(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a contract document", e);
    }
  }

  /**
   * The contracts of a document.
   *
   * @param origin where the bytes came from, the start of every error message
   * @throws IllegalArgumentException when the bytes are not a document of this format version
   */
  public static List<Contract> decode(byte[] bytes, String origin) {
    JsonNode document;
    try {
      document = JSON.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(origin + ": not valid JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(origin + ": cannot parse: " + e.getMessage(), e);
    }
    if (document == null || document.path("formatVersion").asInt(-1) != Contract.FORMAT_VERSION) {
      throw new IllegalArgumentException(
          origin
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
        throw new IllegalArgumentException(origin + ": " + e.getMessage(), e);
      }
    }
    return List.copyOf(contracts);
  }

  /** {@code contracts} with {@code contract} replacing the one of its namespace, or added last. */
  public static List<Contract> with(List<Contract> contracts, Contract contract) {
    List<Contract> result = new ArrayList<>(contracts.size() + 1);
    boolean replaced = false;
    for (Contract existing : contracts) {
      if (existing.namespace().equals(contract.namespace())) {
        result.add(contract);
        replaced = true;
      } else {
        result.add(existing);
      }
    }
    if (!replaced) {
      result.add(contract);
    }
    return result;
  }
}
