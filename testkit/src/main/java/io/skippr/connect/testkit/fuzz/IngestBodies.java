package io.skippr.connect.testkit.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The bodies of {@link IngestRequests}: line protocol and JSON rows of three kinds (good, bad,
 * mutated), with the marks of the good ones and the positions of the bad ones.
 */
final class IngestBodies {

  private static final String[] LINE_CORPUS = {
    "weather,location=us-midwest temperature=82 1465839830100400200",
    "cpu,host=a,region=eu\\ west usage=0.5,count=3i,flag=t,name=\"x\\\"y\" 1",
    "my\\ m\\,x,k\\=1=v\\ 1 f\\,k=\"a\\\\b\",u=18446744073709551615u -5",
    "mut v=-1.234456e+78,w=1.,x=.5,y=1E-5,z=FALSE",
    "mut,t=\uD83C\uDF6D v=\"Launch \uD83D\uDE80\"",
    "  mut v=1i   9223372036854775806  ",
  };
  private static final String[] BAD_LINES = {
    "fz_bad v=",
    "fz_bad v=1x",
    "fz_bad,t v=1i",
    "_fz v=1i",
    "fz_bad v=\"open",
    "fz_bad v=1i notatime",
    "fz_bad time=1i",
    "fz_bad v=99999999999999999999i",
    "fz_bad v=1i 99999999999999999999",
    "fz_bad,a=1,a=2 v=1i",
    "fz_bad",
  };
  private static final String[] JSON_CORPUS = {
    "{\"id\":1,\"items\":[{\"sku\":\"a\",\"qty\":2}],\"paid\":true}",
    "{\"z\":null,\"w\":-1.5e10,\"s\":\"\\u00e9\\\"\"}",
    "{\"deep\":{\"deeper\":{\"deepest\":[1,[2,[3]]]}}}",
  };
  private static final String[] BAD_ITEMS = {
    "{\"a\":1,}",
    "{\"a\" 1}",
    "not json",
    "{\"a\":tru}",
    "{'a':1}",
    "{\"a\":1e999}",
    "{\"a\":123456789012345678901234567890}",
    "{\"a\":\"unterminated",
    "{\"s\":\"\\uD800\"}",
  };
  private static final String[] ARRAY_BAD_ITEMS = {"1", "\"x\"", "[1]", "null", "true"};

  private final String token;
  private final int rowMaxBytes;
  private long marks;

  IngestBodies(String token, int rowMaxBytes) {
    this.token = token;
    this.rowMaxBytes = rowMaxBytes;
  }

  /** Rows of a body, their kinds and positions. */
  record Rows(byte[] bytes, List<String> marks, List<Long> bad, boolean mutated, boolean nestable) {

    /**
     * @param strict v3 with accept_partial=false: one rejected row rejects them all
     */
    IngestRequests.Expect expect(boolean strict) {
      if (mutated) {
        return nestable || strict
            ? IngestRequests.Expect.ANY_VERDICT
            : IngestRequests.Expect.GOOD_LAND;
      }
      return bad.isEmpty() ? IngestRequests.Expect.ACCEPTED : IngestRequests.Expect.PARTIAL;
    }
  }

  /** Line protocol rows, one per line, numbered from 1. */
  Rows lines(Random r) {
    StringBuilder body = new StringBuilder();
    List<String> good = new ArrayList<>();
    List<Long> bad = new ArrayList<>();
    boolean mutated = false;
    int count = r.nextInt(9);
    String newline = r.nextInt(4) == 0 ? "\r\n" : "\n";
    for (int line = 1; line <= count; line++) {
      int kind = r.nextInt(20);
      if (kind < 10) {
        String mark = mark();
        good.add(mark);
        body.append(goodLine(r, mark));
      } else if (kind < 15) {
        bad.add((long) line);
        body.append(
            r.nextInt(10) == 0
                ? "fz_bad v=\"" + "x".repeat(rowMaxBytes) + "\""
                : BAD_LINES[r.nextInt(BAD_LINES.length)]);
      } else if (kind < 19) {
        mutated = true;
        byte[] base = LINE_CORPUS[r.nextInt(LINE_CORPUS.length)].getBytes(StandardCharsets.UTF_8);
        body.append(oneLine(Mutations.mutate(r, base, 4)));
      } else {
        body.append(r.nextBoolean() ? "" : "# a comment");
      }
      if (line < count || r.nextBoolean()) {
        body.append(newline);
      }
    }
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    return new Rows(bytes, good, bad, mutated, false);
  }

  private String goodLine(Random r, String mark) {
    int k = r.nextInt(3);
    StringBuilder line = new StringBuilder("fz_good").append(k);
    line.append(",host=h").append(r.nextInt(5));
    if (r.nextBoolean()) {
      line.append(",zone=eu\\ west\\,\u00e9");
    }
    line.append(" mark=\"").append(mark).append("\"");
    line.append(",count=").append(r.nextLong()).append('i');
    line.append(",ratio=").append(r.nextDouble());
    line.append(",flag=").append(r.nextBoolean() ? "t" : "FALSE");
    if (r.nextBoolean()) {
      line.append(' ').append(r.nextInt(100_000));
    }
    return line.toString();
  }

  private static String oneLine(byte[] mutated) {
    String text = new String(mutated, StandardCharsets.UTF_8);
    return text.replace('\n', ' ');
  }

  /** NDJSON items, numbered from 0 (blank lines do not count). */
  Rows ndjson(Random r) {
    StringBuilder body = new StringBuilder();
    List<String> good = new ArrayList<>();
    List<Long> bad = new ArrayList<>();
    boolean mutated = false;
    int count = r.nextInt(8);
    for (int item = 0; item < count; item++) {
      int kind = r.nextInt(20);
      if (kind < 11) {
        String mark = mark();
        good.add(mark);
        body.append(goodItem(r, mark));
      } else if (kind < 16) {
        bad.add((long) item);
        body.append(BAD_ITEMS[r.nextInt(BAD_ITEMS.length)]);
      } else {
        mutated = true;
        byte[] base = JSON_CORPUS[r.nextInt(JSON_CORPUS.length)].getBytes(StandardCharsets.UTF_8);
        body.append(oneLine(Mutations.mutate(r, base, 4)));
      }
      body.append(r.nextInt(5) == 0 ? "\n\n" : "\n");
    }
    return new Rows(body.toString().getBytes(StandardCharsets.UTF_8), good, bad, mutated, true);
  }

  /** A JSON array, or a metrics batch, of good items and items that are not objects. */
  Rows array(Random r, boolean metrics) {
    List<String> items = new ArrayList<>();
    List<String> good = new ArrayList<>();
    List<Long> bad = new ArrayList<>();
    int count = r.nextInt(8);
    for (int item = 0; item < count; item++) {
      if (r.nextInt(4) > 0) {
        String mark = mark();
        good.add(mark);
        items.add(goodItem(r, mark));
      } else {
        bad.add((long) item);
        items.add(ARRAY_BAD_ITEMS[r.nextInt(ARRAY_BAD_ITEMS.length)]);
      }
    }
    String array = "[" + String.join(r.nextBoolean() ? "," : " ,\n ", items) + "]";
    String body = metrics ? "{\"metrics\":" + array + "}" : array;
    return new Rows(body.getBytes(StandardCharsets.UTF_8), good, bad, false, false);
  }

  private String goodItem(Random r, String mark) {
    return "{\"mark\":\""
        + mark
        + "\",\"count\":"
        + r.nextLong()
        + ",\"ratio\":"
        + r.nextDouble()
        + ",\"flag\":"
        + r.nextBoolean()
        + ",\"attrs\":{\"name\":\"\\u00e9\\\"\\\\\",\"depth\":"
        + r.nextInt(9)
        + "},\"items\":["
        + r.nextInt(5)
        + ","
        + r.nextInt(5)
        + "]}";
  }

  private String mark() {
    return token + "-" + marks++;
  }
}
