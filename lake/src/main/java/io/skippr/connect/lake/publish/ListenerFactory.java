package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.storage.LakeStorage;

/** Opens the configured {@link CommitListener} of a writer once the lake's identity is known. */
@FunctionalInterface
public interface ListenerFactory {
  /** No listener. */
  ListenerFactory NONE = (storage, lake, owner) -> CommitListener.NONE;

  /**
   * @param storage the writer's lake storage
   * @param lake the lake's identity
   * @param owner who the writer claims TPs as
   */
  CommitListener open(LakeStorage storage, LakeIdentity lake, String owner);
}
