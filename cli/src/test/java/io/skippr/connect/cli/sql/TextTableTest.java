package io.skippr.connect.cli.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void alignsNumbersRightAndTextLeft() {
    TextTable table = new TextTable(List.of("host", "points"));
    table.add(List.of("host-01", "500"), List.of(false, true));
    table.add(List.of("h", "7"), List.of(false, true));

    assertThat(table.lines("  "))
        .containsExactly(
            "   host    | points",
            "  ---------+--------",
            "   host-01 |    500",
            "   h       |      7");
    assertThat(table.size()).isEqualTo(2);
  }
}
