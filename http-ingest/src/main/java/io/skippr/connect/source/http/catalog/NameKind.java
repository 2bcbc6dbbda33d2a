package io.skippr.connect.source.http.catalog;

/** What a name is: a line protocol measurement or a JSON stream. */
public enum NameKind {
  MEASUREMENT("measurement"),
  STREAM("JSON stream");

  private final String label;

  NameKind(String label) {
    this.label = label;
  }

  /** How reasons name the kind. */
  public String label() {
    return label;
  }
}
