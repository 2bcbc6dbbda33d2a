package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.file.format.RecordParser;
import io.skippr.connect.source.file.read.Boundary;
import java.util.function.Supplier;

/**
 * How a file is opened and cut into records.
 *
 * @param boundaries a new record boundary per open file (CSV boundaries keep quote state)
 * @param parsers a new parser per open file (a CSV parser keeps the file's header)
 * @param maxLineBytes longest record
 */
record ReadSettings(
    Supplier<Boundary> boundaries, Supplier<RecordParser> parsers, int maxLineBytes) {}
