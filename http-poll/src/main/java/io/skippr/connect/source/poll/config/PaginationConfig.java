package io.skippr.connect.source.poll.config;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How the pages of one pass follow each other. */
public final class PaginationConfig {

  public static final String MODE = "pagination.mode";
  public static final String NEXT_POINTER = "pagination.next.pointer";
  public static final String TOKEN_PARAM = "pagination.token.param";
  public static final String PAGE_PARAM = "pagination.page.param";
  public static final String PAGE_START = "pagination.page.start";
  public static final String OFFSET_PARAM = "pagination.offset.param";
  public static final String LIMIT_PARAM = "pagination.limit.param";
  public static final String LIMIT = "pagination.limit";

  /** The pagination modes. */
  public enum Mode {
    NONE,
    NEXT_LINK,
    NEXT_URL,
    TOKEN,
    PAGE,
    OFFSET
  }

  /** The pagination settings. */
  public record Values(
      Mode mode,
      String nextPointer,
      String tokenParam,
      String pageParam,
      long pageStart,
      String offsetParam,
      String limitParam,
      long limit) {}

  private PaginationConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            MODE,
            Type.STRING,
            "none",
            Validators.oneOf("none", "next_link", "next_url", "token", "page", "offset"),
            Importance.HIGH,
            "none: one request per pass; next_link: follow the Link header's rel=\"next\" URL;"
                + " next_url: follow the URL at pagination.next.pointer; token: send the token at"
                + " pagination.next.pointer as pagination.token.param; page: count"
                + " pagination.page.param up from pagination.page.start; offset: count"
                + " pagination.offset.param up by the records received. A pass ends at a page"
                + " without a next link, URL or token, or (page, offset) at an empty page or one"
                + " shorter than both pagination.limit and the largest page seen.")
        .define(
            NEXT_POINTER,
            Type.STRING,
            "",
            Validators.JSON_POINTER,
            Importance.MEDIUM,
            "JSON pointer to the next page's URL (next_url) or token (token) in a response, e.g."
                + " /paging/next. Missing, null or empty: the last page.")
        .define(
            TOKEN_PARAM,
            Type.STRING,
            "page_token",
            Importance.LOW,
            "Query parameter carrying the page token (token mode). Empty: only ${token} in"
                + " http.url or http.body carries it.")
        .define(
            PAGE_PARAM,
            Type.STRING,
            "page",
            Importance.LOW,
            "Query parameter carrying the page number (page mode). Empty: only ${page}.")
        .define(
            PAGE_START,
            Type.LONG,
            1L,
            Range.atLeast(0),
            Importance.LOW,
            "Number of the first page (page mode).")
        .define(
            OFFSET_PARAM,
            Type.STRING,
            "offset",
            Importance.LOW,
            "Query parameter carrying the offset of the first record of a page (offset mode,"
                + " from 0). Empty: only ${offset}.")
        .define(
            LIMIT_PARAM,
            Type.STRING,
            "limit",
            Importance.LOW,
            "Query parameter carrying pagination.limit (page and offset modes). Empty: only"
                + " ${limit}.")
        .define(
            LIMIT,
            Type.LONG,
            100L,
            Range.atLeast(1),
            Importance.LOW,
            "Page size (page and offset modes: asked for, and a page shorter than it and than"
                + " the largest page seen ends the pass). In none mode: a response with this many"
                + " records or more is taken as not caught up, and the next pass starts at once"
                + " instead of after poll.interval.ms. Also ${limit}.");
  }

  public static Values from(AbstractConfig c) {
    return new Values(
        Mode.valueOf(c.getString(MODE).toUpperCase(Locale.ROOT)),
        c.getString(NEXT_POINTER),
        c.getString(TOKEN_PARAM).trim(),
        c.getString(PAGE_PARAM).trim(),
        c.getLong(PAGE_START),
        c.getString(OFFSET_PARAM).trim(),
        c.getString(LIMIT_PARAM).trim(),
        c.getLong(LIMIT));
  }
}
