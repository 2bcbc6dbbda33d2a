package io.skippr.connect.testkit;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * S3 listings over plain HTTP and XML, independent of the SDK the code under test uses: objects
 * (ListObjectsV2) and multipart uploads in progress (ListMultipartUploads), following pages.
 */
final class S3Listings {
  private S3Listings() {}

  static List<String> objectKeys(
      Function<String, HttpResponse<String>> get, String bucket, String prefix) {
    List<String> keys = new ArrayList<>();
    String token = null;
    do {
      String query =
          "/"
              + bucket
              + "?list-type=2&max-keys=1000&prefix="
              + encode(prefix)
              + (token == null ? "" : "&continuation-token=" + encode(token));
      Document page = parse(get.apply(query).body());
      keys.addAll(texts(page, "Contents", "Key"));
      token = truncated(page) ? first(page, "NextContinuationToken") : null;
    } while (token != null);
    keys.sort(null);
    return keys;
  }

  static List<String> uploadKeys(
      Function<String, HttpResponse<String>> get, String bucket, String prefix) {
    List<String> keys = new ArrayList<>();
    String keyMarker = null;
    String uploadIdMarker = null;
    while (true) {
      String query =
          "/"
              + bucket
              + "?uploads&prefix="
              + encode(prefix)
              + (keyMarker == null ? "" : "&key-marker=" + encode(keyMarker))
              + (uploadIdMarker == null ? "" : "&upload-id-marker=" + encode(uploadIdMarker));
      Document page = parse(get.apply(query).body());
      keys.addAll(texts(page, "Upload", "Key"));
      if (!truncated(page)) {
        keys.sort(null);
        return keys;
      }
      keyMarker = first(page, "NextKeyMarker");
      uploadIdMarker = first(page, "NextUploadIdMarker");
    }
  }

  /** Percent-encodes each segment of a key for a URL path, keeping the {@code /}s. */
  static String encodePath(String key) {
    StringBuilder out = new StringBuilder();
    for (String segment : key.split("/", -1)) {
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(encode(segment));
    }
    return out.toString();
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static Document parse(String xml) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory
          .newDocumentBuilder()
          .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalStateException("not an S3 listing: " + xml, e);
    }
  }

  private static boolean truncated(Document page) {
    return "true".equalsIgnoreCase(first(page, "IsTruncated"));
  }

  /** Text of each {@code child} element directly inside a {@code parent} element. */
  private static List<String> texts(Document page, String parent, String child) {
    List<String> out = new ArrayList<>();
    NodeList parents = page.getElementsByTagName(parent);
    for (int i = 0; i < parents.getLength(); i++) {
      NodeList children = ((Element) parents.item(i)).getElementsByTagName(child);
      if (children.getLength() > 0) {
        out.add(children.item(0).getTextContent());
      }
    }
    return out;
  }

  private static String first(Document page, String element) {
    NodeList nodes = page.getElementsByTagName(element);
    return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
  }
}
