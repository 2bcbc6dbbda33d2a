package io.skippr.connect.state.api;

/**
 * A lease held by {@code holder}: proof of ownership until a contender takes it over.
 *
 * @param key the {@code lease#…} row
 * @param holder who holds it
 * @param heartbeat the heartbeat counter, bumped by every {@link Leases#heartbeat}
 * @param version the row version this holder last wrote
 */
public record Lease(StateKey key, String holder, long heartbeat, long version) {}
