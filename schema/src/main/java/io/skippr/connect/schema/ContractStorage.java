package io.skippr.connect.schema;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Where a pipeline's contracts are kept: one document {@code
 * {tenant}/{workspace}/{pipeline}/metadata.json} per pipeline (see {@link ContractDocument}) on a
 * local file system ({@link ContractStore}) or in an S3 bucket ({@code
 * io.skippr.connect.schema.s3.S3ContractStore}).
 *
 * <p>Every write replaces the whole document at once: a reader sees the old or the new document,
 * never a partial one. Failures are unchecked exceptions whose one-line message names the file or
 * object.
 */
public interface ContractStorage extends AutoCloseable {
  /** The document's name under the pipeline's {@code {tenant}/{workspace}/{pipeline}}. */
  String FILE_NAME = "metadata.json";

  /** The pipeline's contracts; empty when none were saved. */
  List<Contract> load(PipelineId id);

  /** The contract of one namespace of the pipeline, if saved. */
  default Optional<Contract> load(PipelineId id, String namespace) {
    return load(id).stream().filter(c -> c.namespace().equals(namespace)).findFirst();
  }

  /** Replaces the pipeline's contracts. */
  void save(PipelineId id, Collection<Contract> contracts);

  /**
   * Adds the contract, or replaces the one with the same namespace, keeping the others. Concurrent
   * puts of different namespaces of one pipeline all survive.
   */
  void put(PipelineId id, Contract contract);

  /** Where the pipeline's contracts live, for messages: a path or an {@code s3://} URI. */
  String location(PipelineId id);

  /**
   * Fails now, with the reason, when the pipeline's contracts could not be read or written at all
   * (a missing bucket, no access, no connection), so a long task fails before it starts.
   */
  default void checkReachable(PipelineId id) {}

  /** Releases connections; the storage is not used afterwards. */
  @Override
  default void close() {}
}
