/**
 * The writer's metrics ({@link io.skippr.connect.lake.metrics.LakeSinkMetrics}), through Connect's
 * plugin metrics when the worker offers them.
 */
package io.skippr.connect.lake.metrics;
