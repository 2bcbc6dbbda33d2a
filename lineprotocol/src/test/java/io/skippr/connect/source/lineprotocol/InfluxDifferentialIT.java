package io.skippr.connect.source.lineprotocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.testkit.InfluxDbServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The same corpus written to a real InfluxDB 1.6 and parsed by our parser must give the same
 * accepted points (measurement, tags, typed fields, time) and the same rejected lines, except for
 * the listed differences where InfluxDB 1.6 predates or departs from the line protocol reference.
 *
 * <p>Needs {@code influxd} on the PATH: {@code apt-get install -y influxdb} (Debian, InfluxDB 1.6).
 * Without it the test is reported as skipped, with the reason ({@code .ci/prerequisites} installs
 * it, so CI always runs it).
 */
class InfluxDifferentialIT {

  /** Lines whose outcome may differ, with the reason. Each must actually differ. */
  private static final Map<String, String> ALLOWED = new LinkedHashMap<>();

  static {
    String naming = "reference: names must not begin with '_'; InfluxDB 1.6 accepts them";
    ALLOWED.put("_m v=1 1", naming);
    ALLOWED.put("m _v=1 1", naming);
    ALLOWED.put("m,_t=x v=1 1", naming);
    String unsigned = "the u suffix came with the v2 reference; InfluxDB 1.6 has no unsigned type";
    ALLOWED.put("m v=1u 1", unsigned);
    ALLOWED.put("m v=18446744073709551615u 1", unsigned);
    String crlf = "CRLF line ends are accepted by design; InfluxDB 1.6 keeps the CR in the line";
    ALLOWED.put("m v=1 1\r", crlf);
    ALLOWED.put("m v=1\r", crlf);
    ALLOWED.put(
        "m v=\"abc\"x 1",
        "text after a closing quote is an error; InfluxDB 1.6 keeps it as part of the string");
    String backslash =
        "reference: two backslashes are one backslash; InfluxDB 1.6 treats a backslash and any"
            + " next character as one escaped pair while scanning";
    ALLOWED.put("m,t=a\\\\ x v=1 1", backslash);
    ALLOWED.put("m,t=a\\\\b v=1 1", backslash);
    ALLOWED.put("a\\\\b v=1 1", backslash);
    ALLOWED.put(
        "a\\=b v=1 1",
        "reference: a measurement escapes only comma and space, so '\\=' keeps its backslash;"
            + " InfluxDB 1.6 drops it");
  }

  /** Lines written to both; also the seed corpus of {@code LineProtocolFuzzTest}. */
  static final List<String> CORPUS =
      List.of(
          // valid basics
          "weather,location=us-midwest temperature=82 1465839830100400200",
          "weather,location=us-midwest,season=summer temperature=82,humid=0.5 1465839830100400200",
          "cpu,zone=b,host=a,Host=c v=1 10",
          "m v=1",
          "m v=1 1",
          "m v=1 -1",
          "m v=1 0",
          "m v=1 9223372036854775806",
          "m v=1 -9223372036854775806",
          "m v=1 9223372036854775807",
          "m v=1 -9223372036854775807",
          "m v=1 99999999999999999999",
          "  m v=1 1",
          "\tm v=1 1",
          "m   v=1   1",
          "m v=1 1 ",
          "m v=1 ",
          // escaping
          "my\\ Measurement fieldKey=\"string value\" 1",
          "my\\,m v=1 1",
          "a=b v=1 1",
          "a\\=b v=1 1",
          "q\"m' v=1 1",
          "m,tag\\ Key1=tag\\ Value1,tag\\ Key2=tag\\ Value2 fieldKey=100 1",
          "m,k\\,1=v\\,1,k\\=2=v\\=2 v=1 1",
          "m a\\ b=1,c\\,d=2,e\\=f=3 1",
          "m,t=a\\b v=1 1",
          "m,t=\"q\" v=1 1",
          "m \"a\"=1 1",
          "m,t=a\\\\b v=1 1",
          "m,t=a\\\\ x v=1 1",
          "m\\\\ x v=1 1",
          "a\\\\b v=1 1",
          "m,tagKey=\uD83C\uDF6D fieldKey=\"Launch \uD83D\uDE80\" 1",
          "m\u00e9,t\u00e9=v\u00e9 f\u00e9=1 1",
          // strings
          "m v=\"\\\"string\\\" within a string\" 1",
          "m v=\"a\\\\b\" 1",
          "m v=\"a\\nb\" 1",
          "m v=\"comma, space = equals\" 1",
          "m v=\"\" 1",
          "m v=\"x\",w=\"y\\\"z\\\\\" 1",
          "m v=\"abc 1",
          "m v=\"abc\\\" 1",
          "m v=\"abc\"x 1",
          // integers
          "m v=1i 1",
          "m v=-1i 1",
          "m v=-0i 1",
          "m v=012i 1",
          "m v=9223372036854775807i 1",
          "m v=-9223372036854775808i 1",
          "m v=9223372036854775808i 1",
          "m v=-9223372036854775809i 1",
          "m v=1i2 1",
          "m v=-i 1",
          "m v=1.0i 1",
          "m v=1e5i 1",
          "m v=1u 1",
          "m v=18446744073709551615u 1",
          // floats
          "m v=1.0 1",
          "m v=-1.5 1",
          "m v=1. 1",
          "m v=.5 1",
          "m v=-.5 1",
          "m v=007.25 1",
          "m v=1e5 1",
          "m v=1E5 1",
          "m v=1e+5 1",
          "m v=1.5E-3 1",
          "m v=1.e2 1",
          "m v=-1.234456e+78 1",
          "m v=1.5e-400 1",
          "m v=123456789012345678901234567890 1",
          "m v=1.7976931348623157e308 1",
          "m v=1e400 1",
          "m v=-1e400 1",
          "m v=1e 1",
          "m v=1e+ 1",
          "m v=1e5. 1",
          "m v=1.2.3 1",
          "m v=. 1",
          "m v=- 1",
          "m v=--1 1",
          "m v=+1 1",
          "m v=0x10 1",
          "m v=1_000 1",
          "m v=inf 1",
          "m v=-inf 1",
          "m v=NaN 1",
          "m v=1x 1",
          // booleans
          "m a=t,b=T,c=true,d=True,e=TRUE 1",
          "m a=f,b=F,c=false,d=False,e=FALSE 1",
          "m v=tRUE 1",
          "m v=tru 1",
          "m v=truex 1",
          "m v=yes 1",
          // structure
          "m",
          "m,t=1",
          "m ",
          "m v",
          "m v=",
          "m v= 1",
          "m =1",
          "m v=1,",
          "m v=1,,w=2",
          "m v=1,w",
          ",m v=1",
          "m,=x v=1",
          "m,t= v=1",
          "m,t v=1",
          "m, v=1",
          "m,t=a, v=1",
          "m,a=1,a=2 v=1 1",
          "m v=1 123 456",
          "m v=1 1.5",
          "m v=1 +5",
          "m v=1 -",
          "m v=1 12a",
          "m,time=1 v=1 1",
          "m time=1 1",
          "m a=1,a=2 1",
          "m a=1,b=2,a=3 1",
          "m a=1,a=\"x\" 1",
          "_m v=1 1",
          "m _v=1 1",
          "m,_t=x v=1 1",
          "m v=1\r",
          "m v=1 1\r");

  private static InfluxDbServer influx;
  private static int database;

  @BeforeAll
  static void start() throws Exception {
    if (InfluxDbServer.installed()) {
      influx = InfluxDbServer.start();
    }
  }

  /** In each test rather than in start(): a skipped class would be reported as no test at all. */
  @BeforeEach
  void requireInflux() {
    assumeTrue(influx != null, InfluxDbServer.NOT_INSTALLED);
  }

  @AfterAll
  static void stop() throws Exception {
    if (influx != null) {
      influx.close();
    }
  }

  @Test
  void sameOutcomeAsInfluxDb16ExceptListedDifferences() throws Exception {
    List<String> unexpected = new ArrayList<>();
    List<String> agreedAllowed = new ArrayList<>();
    int agreed = 0;
    for (String line : CORPUS) {
      String ours = ours(line);
      String theirs = theirs(line);
      boolean same = ours.equals(theirs);
      if (same && ALLOWED.containsKey(line)) {
        agreedAllowed.add(line);
      } else if (!same && !ALLOWED.containsKey(line)) {
        unexpected.add(show(line) + "\n    ours:   " + ours + "\n    influx: " + theirs);
      }
      agreed += same ? 1 : 0;
    }
    System.out.printf(
        "differential: %d lines, %d agree, %d allowed differences%n",
        CORPUS.size(), agreed, CORPUS.size() - agreed);
    assertThat(unexpected).as("differences not listed as allowed").isEmpty();
    assertThat(agreedAllowed).as("allowed differences that no longer differ").isEmpty();
    assertThat(CORPUS).as("every allowed difference is exercised").containsAll(ALLOWED.keySet());
    assertThat(agreed).isGreaterThan(CORPUS.size() / 2);
  }

  private static String ours(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    LineProtocolParser parser = new LineProtocolParser(LineLimits.DEFAULT);
    LineResult first = parser.parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 1L);
    if (!(first instanceof Point p)) {
      return "rejected";
    }
    LineResult second = parser.parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 2L);
    boolean timed = ((Point) second).timeNanos() == p.timeNanos();
    Map<String, String> columns = new TreeMap<>();
    p.tags().forEach(t -> columns.put(t.key(), "tag=" + t.value()));
    for (Field f : p.fields()) {
      String type =
          switch (f.type()) {
            case FLOAT -> "float";
            case INTEGER -> "integer";
            case UINTEGER -> "unsigned";
            case STRING -> "string";
            case BOOLEAN -> "boolean";
          };
      columns.put(f.key(), type + "=" + normalize(f.value()));
    }
    return describe(p.measurement(), columns, timed ? p.timeNanos() : null);
  }

  private static String theirs(String line) throws Exception {
    String db = "d" + (++database);
    influx.query(null, "CREATE DATABASE " + db);
    HttpResponse<String> response = influx.write(db, line.getBytes(StandardCharsets.UTF_8));
    if (response.statusCode() != 204) {
      return "rejected";
    }
    JsonNode rows = influx.query(db, "SELECT * FROM /.*/").path("series");
    if (rows.size() != 1 || rows.get(0).get("values").size() != 1) {
      return "rejected";
    }
    JsonNode series = rows.get(0);
    String measurement = series.get("name").asText();
    Map<String, String> types = new TreeMap<>();
    JsonNode fieldKeys = influx.query(db, "SHOW FIELD KEYS").path("series").get(0).get("values");
    fieldKeys.forEach(v -> types.put(v.get(0).asText(), v.get(1).asText()));
    Map<String, String> columns = new TreeMap<>();
    JsonNode values = series.get("values").get(0);
    for (int i = 1; i < series.get("columns").size(); i++) {
      String column = series.get("columns").get(i).asText();
      JsonNode value = values.get(i);
      if (value.isNull()) {
        continue;
      }
      String type = types.getOrDefault(column, "tag");
      columns.put(column, type + "=" + normalizeJson(type, value));
    }
    boolean timed = hasTimestamp(line);
    return describe(measurement, columns, timed ? values.get(0).asLong() : null);
  }

  /** Whether our parser saw a timestamp (the only source of truth for "written or not"). */
  private static boolean hasTimestamp(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    LineProtocolParser parser = new LineProtocolParser(LineLimits.DEFAULT);
    LineResult a = parser.parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 1L);
    LineResult c = parser.parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 2L);
    return !(a instanceof Point pa) || !(c instanceof Point pc) || pa.timeNanos() == pc.timeNanos();
  }

  private static String describe(String measurement, Map<String, String> columns, Long time) {
    return "point " + measurement + " " + columns + (time == null ? "" : " @" + time);
  }

  private static String normalize(Object value) {
    if (value instanceof Double d) {
      return Double.toString(d == 0.0 ? 0.0 : d);
    }
    return String.valueOf(value);
  }

  private static String normalizeJson(String type, JsonNode value) {
    return switch (type) {
      case "float" -> normalize(value.doubleValue());
      case "integer" -> Long.toString(value.longValue());
      case "boolean" -> Boolean.toString(value.booleanValue());
      default -> value.asText();
    };
  }

  private static String show(String line) {
    return "'" + line.replace("\r", "\\r").replace("\t", "\\t") + "'";
  }
}
