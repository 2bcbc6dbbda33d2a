package io.skippr.connect.lake.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;

/** The buffered stream under Parquet: every byte arrives in order, positions count every byte. */
class StreamOutputFileTest {

  @Test
  void writesOfEverySizeArriveInOrderAndPositionsCountThem() throws IOException {
    ByteArrayOutputStream target = new ByteArrayOutputStream();
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    Random random = new Random(42);
    int[] sizes = {1, 0, 7, 65_535, 1, 65_536, 3, 200_000, 64 << 10, 12, 1};
    try (PositionOutputStream out = new StreamOutputFile(target).create(0)) {
      for (int size : sizes) {
        byte[] chunk = new byte[size + 2];
        random.nextBytes(chunk);
        if (size == 1) {
          out.write(chunk[1]);
        } else {
          out.write(chunk, 1, size);
        }
        expected.write(chunk, 1, size);
        assertThat(out.getPos()).isEqualTo(expected.size());
      }
      out.flush();
      assertThat(target.toByteArray()).isEqualTo(expected.toByteArray());
      out.write(9);
    }
    expected.write(9);
    assertThat(target.toByteArray()).as("close flushes").isEqualTo(expected.toByteArray());
  }

  @Test
  void closingFlushesButLeavesTheCallersStreamOpen() throws IOException {
    boolean[] closed = {false};
    ByteArrayOutputStream target =
        new ByteArrayOutputStream() {
          @Override
          public void close() {
            closed[0] = true;
          }
        };
    try (PositionOutputStream out = new StreamOutputFile(target).create(0)) {
      out.write(new byte[] {1, 2, 3});
    }
    assertThat(target.toByteArray()).containsExactly(1, 2, 3);
    assertThat(closed[0]).isFalse();
  }
}
