package io.skippr.connect.testkit.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * Seeded hostile requests for the HTTP ingest endpoints, each with what the endpoint must answer.
 * Line protocol to {@code /write}, {@code /api/v2/write} and {@code /api/v3/write_lp} with odd,
 * duplicate and invalid query parameters; JSON arrays, NDJSON and metrics batches to {@code
 * /ingest/{stream}}; gzip bodies (valid, cut short, with bytes after the data, bombs over the
 * decompressed limit); wrong methods and paths. A body mixes rows of three kinds:
 *
 * <ul>
 *   <li>good rows, always valid and of the same types, each with a mark of its own (a string field
 *       {@code mark}) to find it among the records;
 *   <li>bad rows, invalid whatever came before (missing values, broken syntax, names starting with
 *       '_', numbers out of range, text that is not UTF-8, lines over the row limit);
 *   <li>mutated rows ({@link Mutations} of a corpus with other names), whose verdict is unknown.
 * </ul>
 *
 * Good rows use names and fields that no mutation of the corpus can produce, so a mutated row never
 * changes a good row's verdict (a field's first type is kept). The bodies come from {@link
 * IngestBodies}.
 */
public final class IngestRequests {

  /** The answer a request must get. */
  public enum Expect {
    /** 204: every row accepted. */
    ACCEPTED,
    /** 400 listing exactly the bad rows; the good rows landed. */
    PARTIAL,
    /** 204 or 400; the good rows landed and the bad rows are among those listed. */
    GOOD_LAND,
    /** 204 or 400 (mutated rows next to JSON rows can merge with them): only a defined answer. */
    ANY_VERDICT,
    /** 400 with nothing accepted (invalid precision, broken or unsupported encoding). */
    INVALID,
    /** 413: over a request limit. */
    TOO_LARGE,
    NOT_FOUND,
    NOT_ALLOWED
  }

  /**
   * One request and its oracle.
   *
   * @param headers names and values, alternating
   * @param goodMarks the marks of the good rows that must land
   * @param badPositions line numbers (line protocol) or item indexes (JSON) that must be rejected
   * @param nothingAccepted true when no row may land (v3 accept_partial=false with a bad row)
   */
  public record Request(
      String method,
      String target,
      List<String> headers,
      byte[] body,
      Expect expect,
      List<String> goodMarks,
      List<Long> badPositions,
      boolean nothingAccepted,
      String what) {

    /** The expected status; 0 when 204 and 400 are both right. */
    public int status() {
      return switch (expect) {
        case ACCEPTED -> 204;
        case PARTIAL, INVALID -> 400;
        case TOO_LARGE -> 413;
        case NOT_FOUND -> 404;
        case NOT_ALLOWED -> 405;
        default -> 0;
      };
    }

    @Override
    public String toString() {
      return method + " " + target + " " + headers + " (" + what + ", " + expect + "): "
          + preview();
    }

    private String preview() {
      if (!headers.isEmpty()) {
        return body.length + " encoded bytes";
      }
      String text = new String(body, StandardCharsets.UTF_8);
      return text.length() > 600 ? text.substring(0, 600) + "…" : text;
    }
  }

  private static final String[] WRITE_PATHS = {"/write", "/api/v2/write", "/api/v3/write_lp"};
  private static final String[] PRECISIONS = {
    "",
    "n",
    "ns",
    "u",
    "us",
    "%C2%B5",
    "ms",
    "s",
    "m",
    "h",
    "auto",
    "nanosecond",
    "microsecond",
    "millisecond",
    "second",
    "MS",
    "Second"
  };
  private static final String[] BAD_PRECISIONS = {"x", "sec", "%zz", "1", "nanos", "%00"};
  private static final String[] JUNK_PARAMS = {
    "&", "&&", "&=", "&=x", "&rp=autogen", "&u=user", "&org=o%20rg", "&q=%ff%fe", "&x=%", "&%3D=1"
  };
  private final IngestBodies bodies;
  private final long decompressedMaxBytes;

  /**
   * @param token makes the marks of this generator unique (e.g. the seed)
   * @param rowMaxBytes the endpoint's limits.row.max.bytes (bad rows just over it)
   * @param decompressedMaxBytes its limits.request.max.decompressed.bytes (bombs over it)
   */
  public IngestRequests(String token, int rowMaxBytes, long decompressedMaxBytes) {
    this.bodies = new IngestBodies(token, rowMaxBytes);
    this.decompressedMaxBytes = decompressedMaxBytes;
  }

  /** The next request. */
  public Request next(Random r) {
    int kind = r.nextInt(100);
    if (kind < 3) {
      String method = new String[] {"GET", "PUT", "DELETE"}[r.nextInt(3)];
      return simple(method, WRITE_PATHS[r.nextInt(3)], Expect.NOT_ALLOWED);
    } else if (kind < 5) {
      String path =
          new String[] {"/writ", "/api/v2/write/x", "/ingest/", "/ingest", "/"}[r.nextInt(5)];
      return simple("POST", path, Expect.NOT_FOUND);
    }
    return kind < 60 ? lineProtocol(r) : json(r);
  }

  private static Request simple(String method, String path, Expect expect) {
    return new Request(
        method, path, List.of(), new byte[0], expect, List.of(), List.of(), false, "routing");
  }

  // ---- line protocol ----

  private Request lineProtocol(Random r) {
    String path = WRITE_PATHS[r.nextInt(3)];
    boolean v3 = path.endsWith("write_lp");
    StringBuilder query = new StringBuilder("?");
    query.append(path.equals("/api/v2/write") ? "bucket=" : "db=").append(database(r));
    boolean badPrecision = false;
    if (r.nextInt(3) > 0) {
      badPrecision = r.nextInt(20) == 0;
      String[] from = badPrecision ? BAD_PRECISIONS : PRECISIONS;
      query.append("&precision=").append(from[r.nextInt(from.length)]);
      if (r.nextInt(5) == 0) {
        query.append("&precision=").append(BAD_PRECISIONS[r.nextInt(BAD_PRECISIONS.length)]);
      }
    }
    boolean strict = v3 && r.nextInt(6) == 0;
    if (strict) {
      query.append("&accept_partial=false");
    }
    query.append(JUNK_PARAMS[r.nextInt(JUNK_PARAMS.length)]);
    IngestBodies.Rows rows = bodies.lines(r);
    Request request =
        encoded(r, "POST", path + query, rows.bytes(), rows.expect(strict), rows, strict, "lp");
    // The precision is checked before the body is read: it decides whatever the body holds.
    return badPrecision ? withExpect(request, Expect.INVALID, "invalid precision") : request;
  }

  private String database(Random r) {
    return new String[] {"x", "", "telegraf", "my%20db", "%C3%A9", "a".repeat(300), "%zz"}
        [r.nextInt(7)];
  }

  // ---- JSON ----

  private Request json(Random r) {
    boolean refused = r.nextInt(25) == 0;
    String stream =
        refused
            ? "_fz"
            : new String[] {"fz_json0", "fz_json1", "fz_j%C3%A9son", "fz%20json"}[r.nextInt(4)];
    String target = "/ingest/" + stream + (r.nextBoolean() ? "" : "?" + JUNK_PARAMS[0]);
    int form = r.nextInt(3);
    IngestBodies.Rows rows = form == 2 ? bodies.ndjson(r) : bodies.array(r, form == 1);
    Expect expect = rows.expect(false);
    if (refused) {
      int items = rows.marks().size() + rows.bad().size();
      expect = rows.mutated() ? Expect.ANY_VERDICT : items == 0 ? Expect.ACCEPTED : Expect.PARTIAL;
      List<Long> all = new ArrayList<>();
      for (long i = 0; i < items; i++) {
        all.add(i);
      }
      rows =
          new IngestBodies.Rows(
              rows.bytes(), List.of(), rows.mutated() ? List.of() : all, rows.mutated(), true);
    }
    return encoded(
        r, "POST", target, rows.bytes(), expect, rows, false, refused ? "json _" : "json");
  }

  // ---- encodings ----

  private Request encoded(
      Random r,
      String method,
      String target,
      byte[] plain,
      Expect expect,
      IngestBodies.Rows rows,
      boolean strict,
      String what) {
    boolean nothing = strict && !rows.bad().isEmpty();
    // With accept_partial=false a rejected mutated row keeps the good rows out too.
    List<String> marks = strict && (nothing || rows.mutated()) ? List.of() : rows.marks();
    Request request =
        new Request(method, target, List.of(), plain, expect, marks, rows.bad(), nothing, what);
    int encoding = r.nextInt(100);
    if (encoding < 70) {
      return request;
    } else if (encoding < 85) {
      String name = new String[] {"gzip", "GZIP", "x-gzip", " gzip "}[r.nextInt(4)];
      return new Request(
          method,
          target,
          List.of("Content-Encoding", name),
          Gzip.gzip(plain),
          expect,
          marks,
          rows.bad(),
          nothing,
          what + ", gzip");
    } else if (encoding < 91) {
      byte[] gz = Gzip.gzip(plain);
      byte[] cut = Arrays.copyOf(gz, r.nextInt(gz.length));
      return invalid(method, target, cut, what + ", gzip cut short");
    } else if (encoding < 94) {
      byte[] trailing =
          Gzip.concat(Gzip.gzip(plain), Mutations.randomBytes(r, 8), new byte[] {'x'});
      return invalid(method, target, trailing, what + ", bytes after the gzip data");
    } else if (encoding < 96) {
      return new Request(
          method,
          target,
          List.of("Content-Encoding", "br"),
          plain,
          Expect.INVALID,
          List.of(),
          List.of(),
          true,
          what + ", unsupported encoding");
    }
    return new Request(
        method,
        target,
        List.of("Content-Encoding", "gzip"),
        bomb(),
        Expect.TOO_LARGE,
        List.of(),
        List.of(),
        true,
        what + ", gzip bomb");
  }

  private static Request invalid(String method, String target, byte[] body, String what) {
    return new Request(
        method,
        target,
        List.of("Content-Encoding", "gzip"),
        body,
        Expect.INVALID,
        List.of(),
        List.of(),
        true,
        what);
  }

  private static Request withExpect(Request q, Expect expect, String why) {
    return new Request(
        q.method(),
        q.target(),
        q.headers(),
        q.body(),
        expect,
        List.of(),
        List.of(),
        true,
        q.what() + ", " + why);
  }

  private byte[] bomb() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      byte[] zeros = new byte[64 * 1024];
      for (long written = 0; written <= decompressedMaxBytes; written += zeros.length) {
        gz.write(zeros);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
