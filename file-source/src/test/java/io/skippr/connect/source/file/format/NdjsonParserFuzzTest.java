package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.skippr.connect.testkit.fuzz.FuzzShare;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * NDJSON lines of every kind: a line is skipped (blank), accepted as the object Jackson's data
 * binding reads from it, or rejected with a reason; never an exception, and the same verdict when
 * parsed again. Generated objects come back as they were written.
 */
class NdjsonParserFuzzTest {

  /** The reference reader: Jackson's data binding, ints as longs, nothing after the value. */
  private static final ObjectMapper REFERENCE =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_LONG_FOR_INTS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  @Property
  void aLineIsSkippedAcceptedAsJacksonReadsItOrRejectedWithAReason(@ForAll("lines") byte[] line) {
    Parsed first = new NdjsonParser().parse(Frames.of(line));
    Parsed again = new NdjsonParser().parse(Frames.of(line));
    assertThat(again).as("the same verdict twice").isEqualTo(first);
    Object reference = reference(line);
    if (first == null) {
      assertThat(blank(line)).as("only a blank line is skipped").isTrue();
    } else if (first.accepted()) {
      assertThat(first.value()).isEqualTo(reference);
    } else {
      assertThat(first.rejection()).isNotBlank();
      if (!first.rejection().contains("surrogate")) {
        // Jackson's byte reader refuses a lone surrogate escape in a field name; its text reader
        // takes it. Refusing it is right: such a name cannot be written as UTF-8.
        assertThat(usable(reference))
            .as("rejected (%s), but the reference reads %s", first.rejection(), reference)
            .isFalse();
      }
    }
  }

  @Property
  @FuzzShare(10)
  void aWrittenObjectIsReadBackAsItWas(@ForAll("objects") Map<String, Object> value)
      throws JsonProcessingException {
    byte[] line = REFERENCE.writeValueAsBytes(value);
    Parsed p = new NdjsonParser().parse(Frames.of(line));
    assertThat(p.rejection()).isNull();
    assertThat(p.value()).isEqualTo(value);
  }

  @Provide
  Arbitrary<byte[]> lines() {
    Arbitrary<byte[]> written = objects().map(v -> Hostile.bytes(uncheckedWrite(v)));
    return Arbitraries.frequencyOf(
            Tuple.of(4, Hostile.soup(40)),
            Tuple.of(4, Hostile.mutated(written)),
            Tuple.of(1, written),
            Tuple.of(
                1,
                Arbitraries.integers()
                    .between(900, 1100)
                    .map(d -> Hostile.bytes("{\"a\":" + "[".repeat(d) + "]".repeat(d) + "}"))))
        .map(Hostile::oneLine);
  }

  @Provide
  Arbitrary<Map<String, Object>> objects() {
    Arbitrary<Object> values =
        Arbitraries.recursive(
            NdjsonParserFuzzTest::scalar,
            inner -> Arbitraries.oneOf(maps(inner, 3).map(m -> (Object) m), lists(inner)),
            0,
            2);
    return maps(values, 4);
  }

  private static Arbitrary<Object> scalar() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.doubles().map(d -> (Object) d),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.just(null));
  }

  /** Maps of up to {@code size} entries, built without flatMap so that failures shrink. */
  private static Arbitrary<Map<String, Object>> maps(Arbitrary<Object> values, int size) {
    return Combinators.combine(Arbitraries.strings().ofMaxLength(6), values)
        .as(java.util.AbstractMap.SimpleEntry::new)
        .list()
        .ofMaxSize(size)
        .uniqueElements(Map.Entry::getKey)
        .map(
            entries -> {
              Map<String, Object> map = new LinkedHashMap<>();
              entries.forEach(e -> map.put(e.getKey(), e.getValue()));
              return map;
            });
  }

  private static Arbitrary<Object> lists(Arbitrary<Object> inner) {
    return inner.list().ofMaxSize(3).map(l -> (Object) l);
  }

  private static String uncheckedWrite(Object value) {
    try {
      return REFERENCE.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What the reference reads from the line as UTF-8 text (a byte order mark before it is skipped),
   * or the exception it throws.
   */
  private static Object reference(byte[] line) {
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(line))
              .toString();
      return REFERENCE.readValue(
          text.startsWith("\uFEFF") ? text.substring(1) : text, Object.class);
    } catch (IOException e) {
      return e;
    }
  }

  /** An object whose numbers all fit: what the file source must accept. */
  private static boolean usable(Object value) {
    if (value instanceof Map<?, ?> m) {
      return m.values().stream().allMatch(NdjsonParserFuzzTest::fits);
    }
    return false;
  }

  private static boolean fits(Object value) {
    if (value instanceof Map<?, ?> m) {
      return m.values().stream().allMatch(NdjsonParserFuzzTest::fits);
    }
    if (value instanceof List<?> l) {
      return l.stream().allMatch(NdjsonParserFuzzTest::fits);
    }
    if (value instanceof Double d) {
      return !d.isInfinite();
    }
    return !(value instanceof BigInteger);
  }

  private static boolean blank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
