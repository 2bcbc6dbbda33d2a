package io.skippr.connect.sink.maintenance;

import java.util.Objects;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Rows of an older file schema written in a newer one, as a table's schema evolves: fields match by
 * name; a field the older rows lack must be optional (it is null); required may become optional;
 * integers widen to longer integers and numbers to double, as the sink's own schema evolution does.
 * Anything else does not widen.
 */
final class RowWidening {
  private RowWidening() {}

  /**
   * Null when rows of {@code from} can be written as {@code to}, else why not (naming the field).
   */
  static String mismatch(GroupType from, GroupType to, String path) {
    for (Type target : to.getFields()) {
      String name = path + target.getName();
      if (!from.containsField(target.getName())) {
        if (target.isRepetition(Type.Repetition.REQUIRED)) {
          return "field " + name + " is required but older rows lack it";
        }
        continue;
      }
      String reason = fieldMismatch(from.getType(target.getName()), target, name);
      if (reason != null) {
        return reason;
      }
    }
    for (Type field : from.getFields()) {
      if (!to.containsField(field.getName())) {
        return "field " + path + field.getName() + " of older rows is gone";
      }
    }
    return null;
  }

  private static String fieldMismatch(Type source, Type target, String name) {
    Type.Repetition was = source.getRepetition();
    Type.Repetition is = target.getRepetition();
    boolean repetitionFits =
        was == is || (was == Type.Repetition.REQUIRED && is == Type.Repetition.OPTIONAL);
    if (!repetitionFits) {
      return "field " + name + " was " + was + ", is " + is;
    }
    if (source.isPrimitive() != target.isPrimitive()) {
      return "field " + name + " changed between a group and a value";
    }
    if (!source.isPrimitive()) {
      if (!Objects.equals(source.getLogicalTypeAnnotation(), target.getLogicalTypeAnnotation())) {
        return "field " + name + " changed its kind";
      }
      return mismatch(source.asGroupType(), target.asGroupType(), name + ".");
    }
    return widens(source.asPrimitiveType(), target.asPrimitiveType())
        ? null
        : "field " + name + " was " + source + ", is " + target;
  }

  private static boolean widens(PrimitiveType from, PrimitiveType to) {
    if (from.getPrimitiveTypeName() == to.getPrimitiveTypeName()
        && Objects.equals(from.getLogicalTypeAnnotation(), to.getLogicalTypeAnnotation())
        && from.getTypeLength() == to.getTypeLength()) {
      return true;
    }
    PrimitiveTypeName a = from.getPrimitiveTypeName();
    PrimitiveTypeName b = to.getPrimitiveTypeName();
    boolean plainInts = plainInteger(from) && plainInteger(to);
    return (a == PrimitiveTypeName.INT32 && b == PrimitiveTypeName.INT32 && plainInts)
        || (a == PrimitiveTypeName.INT32 && b == PrimitiveTypeName.INT64 && plainInts)
        || (plainInteger(from)
            && b == PrimitiveTypeName.DOUBLE
            && to.getLogicalTypeAnnotation() == null)
        || (a == PrimitiveTypeName.FLOAT && b == PrimitiveTypeName.DOUBLE);
  }

  /** An integer column without a logical type, or a signed INT(n) one. */
  private static boolean plainInteger(PrimitiveType type) {
    PrimitiveTypeName name = type.getPrimitiveTypeName();
    if (name != PrimitiveTypeName.INT32 && name != PrimitiveTypeName.INT64) {
      return false;
    }
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    return annotation == null
        || (annotation instanceof IntLogicalTypeAnnotation integer && integer.isSigned());
  }

  /** {@code row} as a row of {@code to}, which {@link #mismatch} accepted for its type. */
  static Group widen(Group row, GroupType to) {
    GroupType from = row.getType();
    SimpleGroup target = new SimpleGroup(to);
    for (int t = 0; t < to.getFieldCount(); t++) {
      Type field = to.getType(t);
      if (!from.containsField(field.getName())) {
        continue;
      }
      int f = from.getFieldIndex(field.getName());
      Type source = from.getType(f);
      for (int i = 0; i < row.getFieldRepetitionCount(f); i++) {
        if (field.isPrimitive()) {
          copyValue(row, f, i, source.asPrimitiveType(), target, t, field.asPrimitiveType());
        } else {
          target.add(t, widen(row.getGroup(f, i), field.asGroupType()));
        }
      }
    }
    return target;
  }

  private static void copyValue(
      Group row, int f, int i, PrimitiveType from, Group target, int t, PrimitiveType to) {
    switch (to.getPrimitiveTypeName()) {
      case BOOLEAN -> target.add(t, row.getBoolean(f, i));
      case INT32 -> target.add(t, row.getInteger(f, i));
      case INT64 ->
          target.add(
              t,
              from.getPrimitiveTypeName() == PrimitiveTypeName.INT32
                  ? (long) row.getInteger(f, i)
                  : row.getLong(f, i));
      case FLOAT -> target.add(t, row.getFloat(f, i));
      case DOUBLE -> target.add(t, asDouble(row, f, i, from));
      default -> target.add(t, row.getBinary(f, i));
    }
  }

  private static double asDouble(Group row, int f, int i, PrimitiveType from) {
    return switch (from.getPrimitiveTypeName()) {
      case INT32 -> row.getInteger(f, i);
      case INT64 -> row.getLong(f, i);
      case FLOAT -> row.getFloat(f, i);
      default -> row.getDouble(f, i);
    };
  }
}
