package io.skippr.connect.source.file.format;

import io.skippr.connect.source.file.read.Frame;
import java.nio.charset.StandardCharsets;

/** Frames made from text, as the framer would hand them over. */
final class Frames {
  private Frames() {}

  static Frame of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  static Frame of(byte[] bytes) {
    return new Frame(Frame.Kind.RECORD, bytes, 0, bytes.length, 0, bytes.length + 1, 1, 1);
  }
}
