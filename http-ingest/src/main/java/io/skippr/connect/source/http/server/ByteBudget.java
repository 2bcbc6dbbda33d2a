package io.skippr.connect.source.http.server;

/** Memory shared by every upload in progress: a body that would exceed it is refused. */
public interface ByteBudget {

  /** Reserves {@code bytes}, or returns false when that would exceed the budget. */
  boolean tryReserve(long bytes);

  void release(long bytes);

  /** No limit (tests). */
  ByteBudget UNLIMITED =
      new ByteBudget() {
        @Override
        public boolean tryReserve(long bytes) {
          return true;
        }

        @Override
        public void release(long bytes) {}
      };
}
