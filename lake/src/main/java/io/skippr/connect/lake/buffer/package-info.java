/**
 * A unit's rows in memory before they are written: per partition path buffers ({@link
 * io.skippr.connect.lake.buffer.UnitBuffer}) and the rotation settings and triggers that end a
 * unit. Internal to the writer ({@link io.skippr.connect.lake.write}).
 */
package io.skippr.connect.lake.buffer;
