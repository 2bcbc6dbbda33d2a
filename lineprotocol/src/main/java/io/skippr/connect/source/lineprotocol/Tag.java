package io.skippr.connect.source.lineprotocol;

/** One tag of a point (key and value are both non-empty). */
public record Tag(String key, String value) {}
