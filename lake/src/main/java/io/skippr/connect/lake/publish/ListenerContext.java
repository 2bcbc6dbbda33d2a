package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.storage.LakeStorage;
import java.util.Map;

/**
 * What a listener of one writer gets to work with.
 *
 * @param storage the writer's lake storage (reading is safe from any thread of the listener's own
 *     when it opens its own handle; this one belongs to the writer)
 * @param lake the lake's identity
 * @param owner who the writer claims TPs as (recorded in epoch entries)
 * @param props the connector's properties
 */
public record ListenerContext(
    LakeStorage storage, LakeIdentity lake, String owner, Map<String, String> props) {
  public ListenerContext {
    props = Map.copyOf(props);
  }
}
