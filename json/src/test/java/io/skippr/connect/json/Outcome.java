package io.skippr.connect.json;

import java.util.concurrent.Callable;

/** What a conversion gave: a result or the exception it threw. */
record Outcome<T>(T result, Throwable error) {
  static <T> Outcome<T> of(Callable<T> call) {
    try {
      return new Outcome<>(call.call(), null);
    } catch (Exception | StackOverflowError e) {
      return new Outcome<>(null, e);
    }
  }

  boolean failed() {
    return error != null;
  }

  String describe() {
    return failed() ? error.getClass().getSimpleName() + ": " + error.getMessage() : "ok " + result;
  }
}
