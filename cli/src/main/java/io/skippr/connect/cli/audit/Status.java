package io.skippr.connect.cli.audit;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collection;
import java.util.Locale;

/** The worst finding of a TP or of the whole audit. */
enum Status {
  CLEAN,
  WARNING,
  PROBLEM;

  static Status of(Collection<Finding> findings) {
    Status worst = CLEAN;
    for (Finding finding : findings) {
      Status status =
          switch (finding.severity()) {
            case PROBLEM -> PROBLEM;
            case WARNING -> WARNING;
            case INFO -> CLEAN;
          };
      worst = status.compareTo(worst) > 0 ? status : worst;
    }
    return worst;
  }

  Status worse(Status other) {
    return other.compareTo(this) > 0 ? other : this;
  }

  @JsonValue
  String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
