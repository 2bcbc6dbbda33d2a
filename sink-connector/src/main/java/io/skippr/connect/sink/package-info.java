/**
 * The lake sink connector: the Kafka Connect adapter over the lake (module skippr-lake). {@link
 * io.skippr.connect.sink.LakeSinkConnector} validates and hands out the configuration, {@link
 * io.skippr.connect.sink.LakeSinkTask} drives a {@link io.skippr.connect.lake.session.LakeSession}
 * through Connect's task lifecycle.
 */
package io.skippr.connect.sink;
