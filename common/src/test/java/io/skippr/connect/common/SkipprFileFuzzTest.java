package io.skippr.connect.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@code skippr.yml} of every shape: anchors and aliases (billion laughs), deep nesting, lists,
 * scalars that YAML 1.1 would read as numbers or booleans, duplicate keys, tabs, flow and block
 * style, garbage. A file is read or refused with a {@link SkipprFile.SkipprFileException} naming
 * it, never another exception, the same both times; a written setting reads back as written.
 */
class SkipprFileFuzzTest {

  private static final Path FILE = Path.of("skippr.yml");

  @Property
  void anyTextIsReadOrRefusedNamingTheFile(@ForAll("texts") String text) {
    Object first = outcome(text);
    assertThat(outcome(text)).isEqualTo(first);
    if (first instanceof String refusal) {
      assertThat(refusal).startsWith("skippr.yml");
    }
  }

  /** The scalars read, or the refusal's message. */
  private static Object outcome(String text) {
    try {
      return SkipprFile.parse(FILE, text).scalars();
    } catch (SkipprFile.SkipprFileException e) {
      return e.getMessage();
    }
  }

  @Property
  void aWrittenSettingReadsBackAsItWasWritten(
      @ForAll("settings") Map<String, String> settings, @ForAll long seed) {
    String yaml = write(settings, new Random(seed));
    assertThat(SkipprFile.parse(FILE, yaml).scalars()).as(yaml).isEqualTo(settings);
  }

  @Provide
  Arbitrary<Map<String, String>> settings() {
    Arbitrary<String> key =
        Arbitraries.of("store", "type", "name", "region", "pipelines", "a", "b", "c", "x.y", "dir");
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Arbitraries.of(
                "010",
                "0x1F",
                "0o17",
                "yes",
                "no",
                "on",
                "off",
                "y",
                "n",
                "True",
                "FALSE",
                "1.50",
                "1e3",
                "1_000",
                "+12",
                ".inf",
                "-.inf",
                ".NaN",
                "12:30",
                "2025-01-01",
                "123456789012345678901234567890",
                "0777",
                "-0",
                "acme-wal",
                "s3://bucket/p",
                "a b",
                "http://h:1/x"),
            Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(8));
    Arbitrary<List<String>> path = key.list().ofMinSize(1).ofMaxSize(3);
    return Combinators.combine(path, value)
        .as(Tuple::of)
        .list()
        .ofMaxSize(6)
        .map(
            entries -> {
              Map<String, String> out = new LinkedHashMap<>();
              for (var e : entries) {
                String dotted = String.join(".", e.get1());
                boolean clash =
                    out.keySet().stream()
                        .anyMatch(
                            k ->
                                k.startsWith(dotted + ".")
                                    || dotted.startsWith(k + ".")
                                    || k.equals(dotted));
                if (!clash) {
                  out.put(dotted, e.get2());
                }
              }
              return out;
            });
  }

  /** Settings as nested block mappings or dotted keys, plain or quoted, in one tree. */
  private static String write(Map<String, String> settings, Random random) {
    Map<String, Object> tree = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String[] parts = e.getKey().split("\\.");
      if (random.nextBoolean() || parts.length == 1) {
        tree.put(e.getKey(), e.getValue());
        continue;
      }
      Map<String, Object> at = tree;
      for (int i = 0; i < parts.length - 1; i++) {
        @SuppressWarnings("unchecked")
        Map<String, Object> next =
            (Map<String, Object>) at.computeIfAbsent(parts[i], k -> new LinkedHashMap<>());
        at = next;
      }
      at.put(parts[parts.length - 1], e.getValue());
    }
    StringBuilder out = new StringBuilder();
    render(tree, 0, random, out);
    return out.toString();
  }

  private static void render(Map<String, Object> map, int depth, Random random, StringBuilder out) {
    for (Map.Entry<String, Object> e : map.entrySet()) {
      out.append("  ".repeat(depth)).append(e.getKey()).append(':');
      if (e.getValue() instanceof Map<?, ?> inner) {
        out.append('\n');
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) inner;
        render(m, depth + 1, random, out);
      } else {
        String v = (String) e.getValue();
        out.append(' ').append(random.nextInt(4) == 0 ? "'" + v.replace("'", "''") + "'" : v);
        out.append('\n');
      }
    }
  }

  @Provide
  Arbitrary<String> texts() {
    Arbitrary<String> pieces =
        Arbitraries.of(
                "a",
                "b",
                ":",
                ": ",
                " ",
                "  ",
                "\t",
                "\n",
                "\r\n",
                "- ",
                "-",
                "&x ",
                "*x",
                "<<: ",
                "{",
                "}",
                "[",
                "]",
                ",",
                "\"",
                "'",
                "#",
                "? ",
                "!!str ",
                "!foo ",
                "---\n",
                "...\n",
                "%YAML 1.2\n",
                "\u0000",
                "\uFEFF",
                "\u00e9",
                "|\n",
                ">\n",
                "~",
                "null",
                "010",
                "\\",
                "x: &a [1,2]\n",
                "y: *a\n",
                "k: v\n",
                "k: w\n")
            .list()
            .ofMaxSize(30)
            .map(p -> String.join("", p));
    return Arbitraries.frequencyOf(
        Tuple.of(8, pieces),
        Tuple.of(
            1, Arbitraries.integers().between(990, 1010).map(d -> "[".repeat(d) + "]".repeat(d))),
        Tuple.of(1, Arbitraries.integers().between(1, 12).map(SkipprFileFuzzTest::laughs)));
  }

  /** The billion laughs: each level lists the one before ten times. */
  static String laughs(int levels) {
    StringBuilder y =
        new StringBuilder("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int i = 1; i <= levels; i++) {
      y.append("l").append(i).append(": &l").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        y.append(j > 0 ? ", " : "").append("*l").append(i - 1);
      }
      y.append("]\n");
    }
    return y.toString();
  }
}
