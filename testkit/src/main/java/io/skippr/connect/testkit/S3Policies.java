package io.skippr.connect.testkit;

import io.skippr.connect.testkit.HttpFaultProxy.Refusal;
import io.skippr.connect.testkit.HttpFaultProxy.Seen;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What AWS enforces and S3Mock does not, as {@link HttpFaultProxy#gate gates} in front of it:
 * requests signed with live STS credentials only, a bucket policy that denies unencrypted writes,
 * and SSE-C (an object written with a customer key is read, copied and extended only with it).
 */
public final class S3Policies {
  private S3Policies() {}

  /** The first refusal of {@code gates}, in order. */
  @SafeVarargs
  public static Function<Seen, Refusal> all(Function<Seen, Refusal>... gates) {
    return request -> {
      for (Function<Seen, Refusal> gate : gates) {
        Refusal refusal = gate.apply(request);
        if (refusal != null) {
          return refusal;
        }
      }
      return null;
    };
  }

  /** Refuses requests not signed with credentials {@code sts} issued, or signed after expiry. */
  public static Function<Seen, Refusal> signedBy(StsTestServer sts) {
    return request -> {
      Optional<StsTestServer.Issued> issued =
          Optional.ofNullable(request.accessKeyId()).flatMap(sts::issued);
      if (issued.isEmpty()) {
        return new Refusal(
            403,
            "InvalidAccessKeyId",
            "The AWS Access Key Id you provided does not exist in our records.");
      }
      if (Instant.now().isAfter(issued.get().expiration())) {
        return new Refusal(400, "ExpiredToken", "The provided token has expired.");
      }
      return null;
    };
  }

  /** A bucket policy that denies object writes without {@code x-amz-server-side-encryption}. */
  public static Function<Seen, Refusal> requireEncryption() {
    return request -> {
      if (createsObject(request) && request.header("x-amz-server-side-encryption") == null) {
        return new Refusal(403, "AccessDenied", "Access Denied");
      }
      return null;
    };
  }

  /** Whether the request creates an object: PutObject, CopyObject, CreateMultipartUpload. */
  public static boolean createsObject(Seen request) {
    String query = query(request);
    if (request.method().equals("PUT")) {
      return !query.contains("partNumber=") && path(request).indexOf('/') > 0;
    }
    return request.method().equals("POST") && query.matches("(.*&)?uploads(=[^&]*)?(&.*)?");
  }

  /** A fresh SSE-C emulation (it remembers which objects were written with which key). */
  public static Function<Seen, Refusal> customerKeys() {
    Map<String, String> keyOf = new ConcurrentHashMap<>();
    return request -> {
      String md5 = request.header("x-amz-server-side-encryption-customer-key-md5");
      String path = path(request);
      String copySource = request.header("x-amz-copy-source");
      if (copySource != null) {
        String source = decode(copySource.replaceFirst("^/", "").replaceFirst("\\?.*", ""));
        String needed = keyOf.get(source);
        String given = request.header("x-amz-copy-source-server-side-encryption-customer-key-md5");
        if (needed != null && !needed.equals(given)) {
          return wrongKey();
        }
      }
      if (createsObject(request)) {
        if (md5 == null) {
          keyOf.remove(path);
        } else {
          keyOf.put(path, md5);
        }
        return null;
      }
      String needed = keyOf.get(path);
      boolean readsOrExtends =
          request.method().equals("GET")
              || request.method().equals("HEAD")
              || (request.method().equals("PUT") && query(request).contains("partNumber="));
      if (needed != null && readsOrExtends && !needed.equals(md5)) {
        return wrongKey();
      }
      return null;
    };
  }

  private static Refusal wrongKey() {
    return new Refusal(
        400,
        "InvalidRequest",
        "The object was stored using a form of Server Side Encryption. The correct parameters"
            + " must be provided to retrieve the object.");
  }

  /** {@code bucket/key} of a path-style request, decoded. */
  private static String path(Seen request) {
    String target = request.target();
    int q = target.indexOf('?');
    return decode((q < 0 ? target : target.substring(0, q)).replaceFirst("^/", ""));
  }

  private static String query(Seen request) {
    int q = request.target().indexOf('?');
    return q < 0 ? "" : request.target().substring(q + 1);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
