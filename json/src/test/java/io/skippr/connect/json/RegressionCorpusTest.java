package io.skippr.connect.json;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input of the regression corpus (hand-picked hostile input and what the differential fuzz
 * tests once found) read by Kafka's converter and ours, which must agree.
 */
class RegressionCorpusTest {
  static List<Regressions.Case> reads() {
    return Regressions.load("/regressions/read.jsonl");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reads")
  void readsAsKafkaDoes(Regressions.Case c) {
    Differential.fresh(c.setup()).read(c.input());
  }
}
