package io.skippr.connect.source.lineprotocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LineProtocolParserTest {

  private static final long NOW = 42L;

  static LineResult parse(String line) {
    return parse(line, Precision.NANOSECONDS);
  }

  static LineResult parse(String line, Precision precision) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return new LineProtocolParser(LineLimits.DEFAULT)
        .parseLine(bytes, 0, bytes.length, 7, precision, NOW);
  }

  static Point point(String line) {
    LineResult result = parse(line);
    assertThat(result).as(line).isInstanceOf(Point.class);
    return (Point) result;
  }

  static String rejection(String line) {
    LineResult result = parse(line);
    assertThat(result).as(line).isInstanceOf(Rejection.class);
    Rejection rejection = (Rejection) result;
    assertThat(rejection.line()).isEqualTo(7);
    assertThat(rejection.text()).isEqualTo(line.replaceAll("\r$", ""));
    return rejection.reason();
  }

  static Object value(String line) {
    return point(line).fields().get(0).value();
  }

  @Test
  void parsesAllElements() {
    Point p =
        point(
            "weather,location=us-midwest,season=summer temperature=82,humid=0.5 1465839830100400200");
    assertThat(p.measurement()).isEqualTo("weather");
    assertThat(p.tags())
        .containsExactly(new Tag("location", "us-midwest"), new Tag("season", "summer"));
    assertThat(p.fields())
        .containsExactly(
            new Field("temperature", FieldType.FLOAT, 82.0),
            new Field("humid", FieldType.FLOAT, 0.5));
    assertThat(p.timeNanos()).isEqualTo(1465839830100400200L);
    assertThat(p.line()).isEqualTo(7);
  }

  @Test
  void missingTimestampUsesTheDefault() {
    assertThat(point("m v=1").timeNanos()).isEqualTo(42L);
  }

  @Test
  void measurementEscapesCommaAndSpaceOnly() {
    assertThat(point("my\\ Meas\\,urement v=1").measurement()).isEqualTo("my Meas,urement");
    assertThat(point("a\\=b v=1").measurement()).isEqualTo("a\\=b");
    assertThat(point("a=b v=1").measurement()).isEqualTo("a=b");
    assertThat(point("a\"b' v=1").measurement()).isEqualTo("a\"b'");
  }

  @Test
  void tagsEscapeCommaEqualsAndSpace() {
    Point p = point("m,tag\\ Key1=tag\\ Value1,k\\,2=v\\=2,k\\=3=v\\,3 v=1");
    assertThat(p.tags())
        .containsExactly(
            new Tag("k,2", "v=2"), new Tag("k=3", "v,3"), new Tag("tag Key1", "tag Value1"));
  }

  @Test
  void fieldKeysEscapeCommaEqualsAndSpace() {
    Point p = point("m a\\ b=1,c\\,d=2,e\\=f=3");
    assertThat(p.fields()).extracting(Field::key).containsExactly("a b", "c,d", "e=f");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "m,t=a\\b v=1|a\\b",
        "m,t=a\\\\b v=1|a\\b",
        "m,t=a\\\\\\b v=1|a\\\\b",
        "m,t=a\\\\\\\\b v=1|a\\\\b",
        "m,t=a\\\\\\\\\\b v=1|a\\\\\\b",
        "m,t=a\\\\\\\\\\\\b v=1|a\\\\\\b",
        "m,t=ab\\\\ v=1|ab\\"
      })
  void backslashesFollowTheReferenceTable(String line, String tagValue) {
    assertThat(point(line).tags().get(0).value()).isEqualTo(tagValue);
  }

  @Test
  void stringFieldsEscapeDoubleQuoteAndBackslash() {
    assertThat(value("m v=\"\\\"string\\\" within a string\""))
        .isEqualTo("\"string\" within a string");
    assertThat(value("m v=\"a\\\\b\"")).isEqualTo("a\\b");
    assertThat(value("m v=\"a\\nb\"")).isEqualTo("a\\nb");
    assertThat(value("m v=\"a\\\\\\\"b\"")).isEqualTo("a\\\"b");
    assertThat(value("m v=\"comma, space = equals\"")).isEqualTo("comma, space = equals");
    assertThat(value("m v=\"\"")).isEqualTo("");
    assertThat(value("m,tagKey=\uD83C\uDF6D fieldKey=\"Launch \uD83D\uDE80\" 1556813561098000000"))
        .isEqualTo("Launch \uD83D\uDE80");
    assertThat(point("m v=\"x\",w=\"y\"").fields()).hasSize(2);
  }

  @ParameterizedTest
  @CsvSource({
    "1i,1",
    "-1i,-1",
    "0i,0",
    "-0i,0",
    "012i,12",
    "9223372036854775807i,9223372036854775807",
    "-9223372036854775808i,-9223372036854775808"
  })
  void integers(String text, long expected) {
    Field f = point("m v=" + text).fields().get(0);
    assertThat(f.type()).isEqualTo(FieldType.INTEGER);
    assertThat(f.value()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"0u,0", "1u,1", "12485903u,12485903", "18446744073709551615u,18446744073709551615"})
  void unsignedIntegers(String text, String expected) {
    Field f = point("m v=" + text).fields().get(0);
    assertThat(f.type()).isEqualTo(FieldType.UINTEGER);
    assertThat(Long.toUnsignedString((Long) f.value())).isEqualTo(expected);
  }

  @Test
  void unsignedAboveSignedRangeIsFlagged() {
    assertThat(point("m v=9223372036854775808u").fields().get(0).exceedsSignedLong()).isTrue();
    assertThat(point("m v=9223372036854775807u").fields().get(0).exceedsSignedLong()).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    "1,1.0",
    "1.0,1.0",
    "-1.5,-1.5",
    "1.,1.0",
    ".5,0.5",
    "-.5,-0.5",
    "0.05,0.05",
    "007.25,7.25",
    "1e5,100000.0",
    "1E5,100000.0",
    "1e+5,100000.0",
    "1.5E-3,0.0015",
    "1.e2,100.0",
    "-1.234456e+78,-1.234456E78",
    "1.5e-400,0.0",
    "123456789012345678901234567890,1.2345678901234568E29",
    "0.1234567890123456789,0.12345678901234568",
    "1.7976931348623157e308,1.7976931348623157E308",
    "4.9e-324,4.9E-324"
  })
  void floats(String text, double expected) {
    Field f = point("m v=" + text).fields().get(0);
    assertThat(f.type()).isEqualTo(FieldType.FLOAT);
    assertThat(f.value()).isEqualTo(expected);
  }

  @Test
  void negativeZeroStaysNegative() {
    assertThat(Double.doubleToRawLongBits((Double) value("m v=-0"))).isEqualTo(Long.MIN_VALUE);
  }

  @ParameterizedTest
  @CsvSource({
    "t,true", "T,true", "true,true", "True,true", "TRUE,true",
    "f,false", "F,false", "false,false", "False,false", "FALSE,false"
  })
  void booleans(String text, boolean expected) {
    Field f = point("m v=" + text).fields().get(0);
    assertThat(f.type()).isEqualTo(FieldType.BOOLEAN);
    assertThat(f.value()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "m v=tRUE|invalid boolean at column 5",
        "m v=tru|invalid boolean at column 5",
        "m v=truex|invalid boolean at column 5",
        "m v=yes|invalid value for field 'v' at column 5",
        "m v=inf|invalid value for field 'v' at column 5",
        "m v=-inf|invalid number value for field 'v' at column 5",
        "m v=NaN|invalid value for field 'v' at column 5",
        "m v=+1|invalid value for field 'v' at column 5",
        "m v=1e400|float value of field 'v' outside the 64-bit range at column 5",
        "m v=-1e400|float value of field 'v' outside the 64-bit range at column 5",
        "m v=1e|invalid exponent in the value of field 'v' at column 5",
        "m v=1e+|invalid exponent in the value of field 'v' at column 5",
        "m v=1e5.|invalid exponent in the value of field 'v' at column 5",
        "m v=1.2.3|invalid number value for field 'v' at column 5",
        "m v=.|invalid number value for field 'v' at column 5",
        "m v=-|invalid number value for field 'v' at column 5",
        "m v=--1|invalid number value for field 'v' at column 5",
        "m v=0x10|invalid number value for field 'v' at column 5",
        "m v=1_000|invalid number value for field 'v' at column 5",
        "m v=1e5i|invalid integer value for field 'v' at column 5",
        "m v=1.0i|invalid integer value for field 'v' at column 5",
        "m v=1i2|invalid number value for field 'v' at column 5",
        "m v=-i|invalid integer value for field 'v' at column 5",
        "m v=9223372036854775808i|integer value of field 'v' outside the signed 64-bit range at column 5",
        "m v=-9223372036854775809i|integer value of field 'v' outside the signed 64-bit range at column 5",
        "m v=18446744073709551616u|unsigned integer value of field 'v' above 18446744073709551615 at column 5",
        "m v=-1u|invalid unsigned integer value for field 'v' at column 5",
        "m v=1.5u|invalid unsigned integer value for field 'v' at column 5",
        "m v=1x|invalid number value for field 'v' at column 5",
        "m v=1\tx|invalid number value for field 'v' at column 5"
      })
  void badValuesAreRejected(String line, String reason) {
    assertThat(rejection(line)).isEqualTo(reason);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "m|missing fields at column 2",
        "m,t=1|missing fields at column 6",
        "`m `|missing fields at column 3",
        "m v|missing '=' and value after field key 'v' at column 4",
        "m v=|missing value for field 'v' at column 5",
        "m v= 1|missing value for field 'v' at column 5",
        "m =1|missing field key at column 3",
        "m v=1,|missing field after ',' at column 7",
        "m v=1,,w=2|missing field key at column 7",
        "m v=1,w|missing '=' and value after field key 'w' at column 8",
        ",m v=1|missing measurement at column 1",
        "m,=x v=1|missing tag key at column 3",
        "m,t= v=1|missing tag value at column 5",
        "m,t v=1|missing tag value for tag key 't' at column 4",
        "m, v=1|missing tag key at column 3",
        "m,t=a, v=1|missing tag key at column 7",
        "m,a=1,a=2 v=1|duplicate tag key 'a' at column 10",
        "m,t=a=b v=1|unescaped '=' in tag value at column 6",
        "m v=\"abc|unterminated string value at column 5",
        "m v=\"abc\"x|unexpected character after the value of field 'v' at column 10",
        "m v=\"abc\\\"|unterminated string value at column 5",
        "m v=1 123 456|unexpected text after the timestamp at column 11",
        "m v=1 1.5|invalid timestamp at column 8",
        "m v=1 +5|invalid timestamp at column 7",
        "m v=1 -|invalid timestamp at column 7",
        "m v=1 12a|invalid timestamp at column 9",
        "m v=1 9223372036854775807|timestamp outside the range -9223372036854775806 to 9223372036854775806 ns at column 7",
        "m v=1 -9223372036854775807|timestamp outside the range -9223372036854775806 to 9223372036854775806 ns at column 7",
        "m v=1 99999999999999999999|timestamp outside the range -9223372036854775806 to 9223372036854775806 ns at column 7",
        "_m v=1|measurement must not begin with '_' at column 1",
        "m,_t=1 v=1|tag key must not begin with '_' at column 3",
        "m _v=1|field key must not begin with '_' at column 3",
        "m,time=1 v=1|tag key 'time' is reserved at column 3",
        "m time=1|field key 'time' is reserved at column 3",
        "m,v=1 v=2|field key 'v' is also a tag key at column 10",
        "m a=1,a=\"x\"|field 'a' written twice with different types at column 12"
      })
  void malformedLinesAreRejectedWithColumn(String line, String reason) {
    assertThat(rejection(line)).isEqualTo(reason);
  }

  @Test
  void tagValueMayHoldAnUnderscorePrefix() {
    assertThat(point("m,t=_x v=1").tags()).containsExactly(new Tag("t", "_x"));
    assertThat(point("m,timestamp=x times=1").fields().get(0).key()).isEqualTo("times");
  }

  @Test
  void duplicateFieldKeysKeepTheLastValue() {
    assertThat(point("m a=1,b=2,a=3").fields())
        .containsExactly(
            new Field("b", FieldType.FLOAT, 2.0), new Field("a", FieldType.FLOAT, 3.0));
  }

  @Test
  void tagsAreSortedByUtf8ByteOrderForTheSeriesKey() {
    Point p = point("cpu,zone=b,host=a,\uFF21=x,\uD83D\uDE00=y,Host=c v=1");
    assertThat(p.tags())
        .extracting(Tag::key)
        .containsExactly("Host", "host", "zone", "\uFF21", "\uD83D\uDE00");
    assertThat(p.seriesKey()).isEqualTo("cpu,Host=c,host=a,zone=b,\uFF21=x,\uD83D\uDE00=y");
  }

  @Test
  void seriesKeyEscapesSoItParsesBack() {
    Point p = point("my\\ m\\,x,k\\=1=v\\ 1,b=back\\\\slash v=1");
    assertThat(p.seriesKey()).isEqualTo("my\\ m\\,x,b=back\\\\slash,k\\=1=v\\ 1");
    Point again = point(p.seriesKey() + " v=1");
    assertThat(again.measurement()).isEqualTo(p.measurement());
    assertThat(again.tags()).isEqualTo(p.tags());
  }

  @Test
  void whitespaceRules() {
    assertThat(point("  \tm v=1 5").timeNanos()).isEqualTo(5L);
    assertThat(point("m   v=1   5  ").timeNanos()).isEqualTo(5L);
    assertThat(point("m v=1 ").fields()).hasSize(1);
    assertThat(point("m v=1 5\r").timeNanos()).isEqualTo(5L);
    assertThat(point("m v=1\r").fields().get(0).value()).isEqualTo(1.0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "\t", "\r", "# comment", "   # indented comment", "#m v=1"})
  void blankAndCommentLinesYieldNothing(String line) {
    assertThat(parse(line)).isNull();
  }

  @ParameterizedTest
  @CsvSource({
    "NANOSECONDS,1,1",
    "MICROSECONDS,1,1000",
    "MILLISECONDS,1,1000000",
    "SECONDS,1,1000000000",
    "SECONDS,-1,-1000000000",
    "MINUTES,1,60000000000",
    "HOURS,1,3600000000000",
    "AUTO,1700000000,1700000000000000000",
    "AUTO,1700000000000,1700000000000000000",
    "AUTO,1700000000000000,1700000000000000000",
    "AUTO,1700000000000000000,1700000000000000000",
    "SECONDS,9223372036,9223372036000000000"
  })
  void precisionScalesTimestamps(Precision precision, String written, long nanos) {
    LineResult r = parse("m v=1 " + written, precision);
    assertThat(((Point) r).timeNanos()).isEqualTo(nanos);
  }

  @Test
  void precisionOverflowIsRejected() {
    assertThat(((Rejection) parse("m v=1 9223372037", Precision.SECONDS)).reason())
        .startsWith("timestamp outside the range");
  }

  @Test
  void extremeTimestampsWithinTheReferenceRange() {
    assertThat(point("m v=1 9223372036854775806").timeNanos()).isEqualTo(9223372036854775806L);
    assertThat(point("m v=1 -9223372036854775806").timeNanos()).isEqualTo(-9223372036854775806L);
    assertThat(point("m v=1 -0").timeNanos()).isEqualTo(0L);
  }

  @Test
  void invalidUtf8IsRejected() {
    byte[] bytes = {'m', ',', 't', '=', (byte) 0xff, ' ', 'v', '=', '1'};
    LineResult r =
        new LineProtocolParser(LineLimits.DEFAULT)
            .parseLine(bytes, 0, bytes.length, 1, Precision.NANOSECONDS, 0);
    assertThat(((Rejection) r).reason()).isEqualTo("invalid UTF-8 at column 5");
    byte[] overlong = {'m', ' ', 'v', '=', '"', (byte) 0xc0, (byte) 0x80, '"'};
    r =
        new LineProtocolParser(LineLimits.DEFAULT)
            .parseLine(overlong, 0, overlong.length, 1, Precision.NANOSECONDS, 0);
    assertThat(((Rejection) r).reason()).isEqualTo("invalid UTF-8 at column 5");
  }

  @Test
  void limitsRejectTheLine() {
    LineLimits small = new LineLimits(40, 2, 2, 4, 3);
    LineProtocolParser parser = new LineProtocolParser(small);
    assertThat(reason(parser, "m,a=1,b=2,c=3 v=1")).isEqualTo("more than 2 tags at column 14");
    assertThat(reason(parser, "m a=1,b=2,c=3")).isEqualTo("more than 2 fields at column 14");
    assertThat(reason(parser, "m a=1,b=2,a=3")).isNull();
    assertThat(reason(parser, "abcde v=1"))
        .isEqualTo("measurement longer than 4 bytes at column 1");
    assertThat(reason(parser, "m,abcde=1 v=1"))
        .isEqualTo("tag key longer than 4 bytes at column 3");
    assertThat(reason(parser, "m v=\"abcd\""))
        .isEqualTo("string value longer than 3 bytes at column 5");
    assertThat(reason(parser, "m v=\"abc\"")).isNull();
    assertThat(reason(parser, "m v=1 " + "1".repeat(35))).isEqualTo("line longer than 40 bytes");
  }

  private static String reason(LineProtocolParser parser, String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    LineResult r = parser.parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 0);
    return r instanceof Rejection rej ? rej.reason() : null;
  }

  @Test
  void parsesAFieldSetWithEveryType() {
    List<Field> fields = point("m f=1.5,i=-3i,u=3u,s=\"x\",b=t").fields();
    assertThat(fields)
        .containsExactly(
            new Field("f", FieldType.FLOAT, 1.5),
            new Field("i", FieldType.INTEGER, -3L),
            new Field("u", FieldType.UINTEGER, 3L),
            new Field("s", FieldType.STRING, "x"),
            new Field("b", FieldType.BOOLEAN, true));
  }
}
