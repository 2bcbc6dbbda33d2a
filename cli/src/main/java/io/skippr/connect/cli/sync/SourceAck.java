package io.skippr.connect.cli.sync;

/**
 * Tells the source engine that a record is processed: only once the lake committed the unit that
 * holds it and the state store has its offset. The engine then lets the task commit (a Debezium
 * connector acknowledges the change to its database there), so nothing is acknowledged that a crash
 * could still lose.
 */
interface SourceAck {
  /** The record is in the lake. */
  void processed();

  /** Where the record's batch is told it is finished (once per batch, after its records). */
  Batches batches();

  /** The batches of one engine task. */
  interface Batches {
    void finished();
  }

  /** For records nobody waits for. */
  SourceAck NONE =
      new SourceAck() {
        private final Batches none = () -> {};

        @Override
        public void processed() {}

        @Override
        public Batches batches() {
          return none;
        }
      };
}
