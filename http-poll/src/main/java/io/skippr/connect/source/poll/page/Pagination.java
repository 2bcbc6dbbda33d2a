package io.skippr.connect.source.poll.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.source.poll.config.PaginationConfig;
import io.skippr.connect.source.poll.http.LinkHeader;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/** How the next page of a pass is found from the current one; empty when the pass ends. */
public interface Pagination {

  /**
   * @param current the reference the page was fetched with (null: the pass's first page)
   * @param page the page
   * @return the next page's reference, or empty: the pass ends with this page
   * @throws Unfollowable when the page names a next page that cannot be requested
   */
  Optional<String> next(String current, ParsedPage page);

  /** The strategy of a pagination mode. */
  static Pagination of(PaginationConfig.Values p) {
    return switch (p.mode()) {
      case NONE -> (current, page) -> Optional.empty();
      case NEXT_LINK ->
          (current, page) ->
              LinkHeader.next(page.response().headers().allValues("Link"))
                  .flatMap(ref -> followed(page, ref));
      case NEXT_URL -> {
        JsonPointer pointer = JsonPointer.compile(p.nextPointer());
        yield (current, page) -> text(page.body().at(pointer)).flatMap(ref -> followed(page, ref));
      }
      case TOKEN -> {
        JsonPointer pointer = JsonPointer.compile(p.nextPointer());
        // A token equal to the one just used would loop: the pass ends instead.
        yield (current, page) ->
            text(page.body().at(pointer)).map(Pagination::bounded).filter(t -> !t.equals(current));
      }
      case PAGE -> {
        PageSize size = new PageSize(p.limit());
        yield (current, page) ->
            size.last(page.records().size())
                ? Optional.empty()
                : Optional.of(Long.toString(number(current, p.pageStart()) + 1));
      }
      case OFFSET -> {
        PageSize size = new PageSize(p.limit());
        yield (current, page) ->
            size.last(page.records().size())
                ? Optional.empty()
                : Optional.of(Long.toString(number(current, 0) + page.records().size()));
      }
    };
  }

  /**
   * When a numbered page is the last of its pass: an empty one always; a shorter one than both
   * {@code pagination.limit} and the largest page this endpoint has answered, too. Records appended
   * while a pass runs fill a short page's free places, where a request for the next page would
   * never look; the next pass finds them from the cursor. A page as large as the largest seen is
   * never taken as the last, so an API whose pages are smaller than {@code pagination.limit} is
   * still read to its empty page.
   */
  final class PageSize {
    private final long limit;
    private long largest;

    PageSize(long limit) {
      this.limit = limit;
    }

    boolean last(int records) {
      largest = Math.max(largest, records);
      return records == 0 || (records < limit && records < largest);
    }
  }

  /**
   * A next page reference that cannot be followed: the page's records stand, the page is rejected
   * for it and its pass ends there.
   */
  final class Unfollowable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reference;

    Unfollowable(String reason, String reference) {
      super(reason);
      this.reference = reference;
    }

    /** The reference as the page gave it. */
    public String reference() {
      return reference;
    }
  }

  /**
   * A URL resolved against the page's own; one that points back at the page ends the pass.
   *
   * @throws Unfollowable when it is no URI, or no http(s) URL with a host
   */
  private static Optional<String> followed(ParsedPage page, String ref) {
    bounded(ref);
    URI self = page.response().uri();
    URI next;
    try {
      next = self.resolve(ref.trim());
    } catch (IllegalArgumentException e) {
      throw new Unfollowable("the next page's URL is no URI: " + e.getMessage(), ref);
    }
    String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || next.getHost() == null) {
      throw new Unfollowable("the next page's URL is no http(s) URL with a host", ref);
    }
    return next.equals(self) ? Optional.empty() : Optional.of(next.toString());
  }

  /** Longest page reference: it goes into every offset of its page, and into a request. */
  int MAX_REFERENCE_CHARS = 16 * 1024;

  /**
   * @throws Unfollowable for a reference longer than {@link #MAX_REFERENCE_CHARS}
   */
  private static String bounded(String ref) {
    if (ref.length() > MAX_REFERENCE_CHARS) {
      throw new Unfollowable(
          "the next page's reference is longer than " + MAX_REFERENCE_CHARS + " characters", ref);
    }
    return ref;
  }

  private static Optional<String> text(JsonNode node) {
    if (node == null || node.isMissingNode() || node.isNull() || node.isContainerNode()) {
      return Optional.empty();
    }
    String text = node.asText();
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  private static long number(String current, long first) {
    return current == null ? first : Long.parseLong(current);
  }
}
