package io.skippr.connect.iceberg;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * A JDBC catalog whose next {@link #LOST_ANSWERS} snapshot commits land but answer {@link
 * CommitStateUnknownException}, as when the connection drops after the database committed.
 */
public class FlakyJdbcCatalog extends JdbcCatalog {
  static final AtomicInteger LOST_ANSWERS = new AtomicInteger();

  @Override
  protected TableOperations newTableOps(TableIdentifier id) {
    TableOperations real = super.newTableOps(id);
    return new ForwardingTableOperations(real) {
      @Override
      public void commit(TableMetadata base, TableMetadata metadata) {
        real.commit(base, metadata);
        boolean snapshotAdded =
            metadata.currentSnapshot() != null
                && (base == null
                    || base.currentSnapshot() == null
                    || metadata.currentSnapshot().snapshotId()
                        != base.currentSnapshot().snapshotId());
        if (snapshotAdded && LOST_ANSWERS.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw new CommitStateUnknownException(new java.io.IOException("connection reset"));
        }
      }
    };
  }
}
