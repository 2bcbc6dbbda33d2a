package io.skippr.connect.source.file.scan;

/**
 * A fingerprint of a file's first bytes of content.
 *
 * @param hash hex of the first 128 bits of SHA-256 over the bytes
 * @param length how many bytes it covers
 */
public record Head(String hash, int length) {}
