package io.skippr.connect.source.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TopicNamesTest {

  @Test
  void theValidatorsTakeEmptyUnsetAndLegalNamesAndRefuseOthers() {
    for (var validator :
        new org.apache.kafka.common.config.ConfigDef.Validator[] {
          TopicNames.EMPTY_OR_LEGAL, TopicNames.UNSET_EMPTY_OR_LEGAL
        }) {
      for (String ok : new String[] {null, "", "orders", "a.b_c-9", "x".repeat(249)}) {
        assertThatCode(() -> validator.ensureValid("topic", ok)).as(ok).doesNotThrowAnyException();
      }
      for (String bad : new String[] {"a b", "a/b", "\u00e9", ".", "..", "x".repeat(250)}) {
        assertThatThrownBy(() -> validator.ensureValid("topic", bad))
            .as(bad)
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("topic")
            .hasMessageContaining("may hold only ASCII letters, digits, '.', '_' and '-'");
      }
    }
    assertThat(TopicNames.EMPTY_OR_LEGAL)
        .hasToString("empty or ASCII letters, digits, '.', '_', '-' (at most 249)");
    assertThat(TopicNames.UNSET_EMPTY_OR_LEGAL)
        .hasToString("unset, empty or ASCII letters, digits, '.', '_', '-' (at most 249)");
  }

  @Test
  void plainNamesAreTheirOwnTopicNames() {
    assertThat(TopicNames.forName("cpu")).isEqualTo("cpu");
    assertThat(TopicNames.forName("disk_io-2")).isEqualTo("disk_io-2");
    assertThat(TopicNames.forName("http.requests")).isEqualTo("_http_2erequests");
    assertThat(TopicNames.forName("cp\u0000u")).isEqualTo("_cp_00u");
    assertThat(TopicNames.forName("cp_u")).isEqualTo("cp_u");
    assertThat(TopicNames.forName("\u00e9")).isEqualTo("__c3_a9");
    assertThat(TopicNames.forName("a_b.c")).isEqualTo("_a_5fb_2ec");
  }

  /**
   * Random names over an alphabet rich in the characters that used to collide: no two names share a
   * mapped name, and no two mapped names collide under Kafka's '.' = '_' rule.
   */
  @Test
  void theMappingIsInjectiveAndCollisionFree() {
    String alphabet = "ab_.-\u0000 /\u00e9Z9";
    Random random = new Random(14);
    Map<String, String> byMapped = new HashMap<>();
    Map<String, String> byCollisionForm = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      int length = 1 + random.nextInt(6);
      StringBuilder name = new StringBuilder();
      for (int c = 0; c < length; c++) {
        name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      if (name.charAt(0) == '_') {
        continue; // names starting with '_' are refused before they are mapped
      }
      String mapped = TopicNames.forName(name.toString());
      assertThat(TopicNames.isLegal("p." + mapped)).as(mapped).isTrue();
      assertThat(mapped).doesNotContain(".");
      String earlier = byMapped.putIfAbsent(mapped, name.toString());
      assertThat(earlier == null || earlier.equals(name.toString()))
          .as(name + " and " + earlier + " both map to " + mapped)
          .isTrue();
      String collision = TopicNames.collisionForm("p." + mapped);
      String colliding = byCollisionForm.putIfAbsent(collision, name.toString());
      assertThat(colliding == null || colliding.equals(name.toString()))
          .as(name + " and " + colliding + " collide as " + collision)
          .isTrue();
    }
    assertThat(byMapped).hasSizeGreaterThan(50_000);
  }
}
