/**
 * The listeners told of every change to the live files (the Iceberg registrar): the SPI {@link
 * io.skippr.connect.lake.publish.CommitListenerProvider}, found with {@link
 * java.util.ServiceLoader} ({@code
 * META-INF/services/io.skippr.connect.lake.publish.CommitListenerProvider}), and the events a
 * {@link io.skippr.connect.lake.publish.CommitListener} receives.
 */
package io.skippr.connect.lake.publish;
