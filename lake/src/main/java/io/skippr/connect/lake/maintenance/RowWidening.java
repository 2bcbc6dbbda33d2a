package io.skippr.connect.lake.maintenance;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Rows of file schemas of one table written in one schema, as the table's schema evolves: fields
 * match by name; a field some rows lack must be optional (it is null); required may become
 * optional; integers widen to longer integers and numbers to double, as the sink's own schema
 * evolution does. Anything else does not widen.
 */
final class RowWidening {
  private RowWidening() {}

  /**
   * The schema every row of {@code a} and of {@code b} widens to: {@code a}'s fields, then those
   * only {@code b} has (optional), each the wider of the two; null when they do not merge.
   */
  static MessageType union(MessageType a, MessageType b) {
    List<Type> fields = unionFields(a, b);
    return fields == null ? null : new MessageType(a.getName(), fields);
  }

  private static List<Type> unionFields(GroupType a, GroupType b) {
    List<Type> fields = new ArrayList<>();
    for (Type field : a.getFields()) {
      Type merged =
          b.containsField(field.getName())
              ? unionField(field, b.getType(field.getName()))
              : optional(field);
      if (merged == null) {
        return null;
      }
      fields.add(merged);
    }
    for (Type field : b.getFields()) {
      if (!a.containsField(field.getName())) {
        Type added = optional(field);
        if (added == null) {
          return null;
        }
        fields.add(added);
      }
    }
    return fields;
  }

  private static Type unionField(Type a, Type b) {
    Type.Repetition repetition = unionRepetition(a.getRepetition(), b.getRepetition());
    if (repetition == null || a.isPrimitive() != b.isPrimitive()) {
      return null;
    }
    if (!a.isPrimitive()) {
      if (!Objects.equals(a.getLogicalTypeAnnotation(), b.getLogicalTypeAnnotation())) {
        return null;
      }
      List<Type> fields = unionFields(a.asGroupType(), b.asGroupType());
      return fields == null ? null : group(repetition, a, fields);
    }
    PrimitiveType wider;
    if (widens(a.asPrimitiveType(), b.asPrimitiveType())) {
      wider = b.asPrimitiveType();
    } else if (widens(b.asPrimitiveType(), a.asPrimitiveType())) {
      wider = a.asPrimitiveType();
    } else {
      return null;
    }
    return withRepetition(wider, repetition);
  }

  private static Type.Repetition unionRepetition(Type.Repetition a, Type.Repetition b) {
    if (a == b) {
      return a;
    }
    if (a == Type.Repetition.REPEATED || b == Type.Repetition.REPEATED) {
      return null;
    }
    return Type.Repetition.OPTIONAL;
  }

  /** A field only some rows have: optional (a repeated one stays repeated: empty is absent). */
  private static Type optional(Type field) {
    if (field.getRepetition() != Type.Repetition.REQUIRED) {
      return field;
    }
    return field.isPrimitive()
        ? withRepetition(field.asPrimitiveType(), Type.Repetition.OPTIONAL)
        : group(Type.Repetition.OPTIONAL, field, field.asGroupType().getFields());
  }

  private static GroupType group(Type.Repetition repetition, Type like, List<Type> fields) {
    return Types.buildGroup(repetition)
        .as(like.getLogicalTypeAnnotation())
        .addFields(fields.toArray(new Type[0]))
        .named(like.getName());
  }

  private static PrimitiveType withRepetition(PrimitiveType type, Type.Repetition repetition) {
    Types.PrimitiveBuilder<PrimitiveType> builder =
        Types.primitive(type.getPrimitiveTypeName(), repetition)
            .as(type.getLogicalTypeAnnotation());
    if (type.getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      builder = builder.length(type.getTypeLength());
    }
    return builder.named(type.getName());
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

  /** {@code row} as a row of {@code to}, a {@link #union} its type is part of. */
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
