package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.DuckDbLake;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Checks a lake table against the deterministic {@link Orders} that were produced. */
final class LakeAudit {
  /** One compaction unit as the lake shows it: one file's offset range and row count. */
  record Unit(
      String file, int partition, long start, long end, long rows, long minTs, long maxTs) {}

  private LakeAudit() {}

  static long rows(DuckDbLake lake, String table) {
    if (!lake.hasFiles(table)) {
      return 0;
    }
    return lake.count("select count(*) from ${table:" + table + "}");
  }

  /** Every (partition, offset) in [0, perPartition) exactly once, nothing else. */
  static void assertEveryOffsetOnce(
      DuckDbLake lake, String table, int partitions, long perPartition) {
    String t = "${table:" + table + "}";
    assertThat(lake.count("select count(*) from " + t)).isEqualTo(partitions * perPartition);
    assertThat(lake.count("select count(distinct (__partition, __offset)) from " + t))
        .isEqualTo(partitions * perPartition);
    List<Map<String, Object>> ranges =
        lake.query(
            "select __partition p, min(__offset) lo, max(__offset) hi, count(*) n from "
                + t
                + " group by 1 order by 1");
    assertThat(ranges).hasSize(partitions);
    for (int p = 0; p < partitions; p++) {
      Map<String, Object> range = ranges.get(p);
      assertThat(((Number) range.get("p")).intValue()).isEqualTo(p);
      assertThat(((Number) range.get("lo")).longValue()).isZero();
      assertThat(((Number) range.get("hi")).longValue()).isEqualTo(perPartition - 1);
      assertThat(((Number) range.get("n")).longValue()).isEqualTo(perPartition);
    }
  }

  /** Each row's values equal the order produced at its (partition, offset). */
  static void assertValues(DuckDbLake lake, String table, boolean schemaless) {
    String sql =
        "select __partition p, __offset o, id, name, epoch_ms(ts) ts_ms, score, active,"
            + " address.city city, address.zip zip, len(items) n_items,"
            + " items[1].sku sku0, items[1].qty qty0"
            + (schemaless
                ? ""
                : ", amount, datediff('day', DATE '1970-01-01', day) day_epoch,"
                    + " cardinality(attributes) n_attributes")
            + " from ${table:"
            + table
            + "} order by p, o";
    long checked = 0;
    for (Map<String, Object> row : lake.query(sql)) {
      int p = ((Number) row.get("p")).intValue();
      long o = ((Number) row.get("o")).longValue();
      long id = Orders.id(p, o);
      String at = "row at partition " + p + " offset " + o;
      assertThat(((Number) row.get("id")).longValue()).as(at).isEqualTo(id);
      assertThat(row.get("name")).as(at).isEqualTo(Orders.name(id));
      assertThat(((Number) row.get("ts_ms")).longValue()).as(at).isEqualTo(Orders.timestamp(o));
      assertThat(row.get("score") == null ? null : ((Number) row.get("score")).doubleValue())
          .as(at)
          .isEqualTo(Orders.score(id));
      // Partitioned by active, the hive directory active=true shadows the column as text.
      assertThat(String.valueOf(row.get("active"))).as(at).isEqualTo(String.valueOf(id % 2 == 0));
      assertThat(row.get("city")).as(at).isEqualTo(Orders.city(id));
      if (Orders.city(id) != null) {
        assertThat(((Number) row.get("zip")).longValue()).as(at).isEqualTo(id % 90_000);
      }
      assertThat(((Number) row.get("n_items")).intValue()).as(at).isEqualTo(Orders.itemCount(id));
      if (Orders.itemCount(id) > 0) {
        assertThat(row.get("sku0")).as(at).isEqualTo(Orders.sku(id, 0));
        assertThat(((Number) row.get("qty0")).intValue()).as(at).isEqualTo(Orders.qty(id, 0));
      }
      if (!schemaless) {
        BigDecimal amount = (BigDecimal) row.get("amount");
        assertThat(amount).as(at).isEqualTo(Orders.amount(id));
        Integer day = Orders.dayEpoch(o);
        assertThat(row.get("day_epoch") == null ? null : ((Number) row.get("day_epoch")).intValue())
            .as(at)
            .isEqualTo(day);
        Object attributes = row.get("n_attributes");
        assertThat(attributes == null ? null : ((Number) attributes).intValue())
            .as(at)
            .isEqualTo(id % 3 == 0 ? null : 2);
      }
      checked++;
    }
    assertThat(checked).isPositive();
  }

  /** The files of a table, each parsed back into the unit it holds. */
  static List<Unit> units(DuckDbLake lake, String table) {
    List<Unit> units = new ArrayList<>();
    String sql =
        "select filename f, min(__partition) p, min(__offset) lo, max(__offset) hi, count(*) n,"
            + " min(epoch_ms(ts)) min_ts, max(epoch_ms(ts)) max_ts from "
            + lake.table(table).replace("union_by_name=true", "union_by_name=true, filename=true")
            + " group by f";
    for (Map<String, Object> row : lake.query(sql)) {
      units.add(
          new Unit(
              (String) row.get("f"),
              ((Number) row.get("p")).intValue(),
              ((Number) row.get("lo")).longValue(),
              ((Number) row.get("hi")).longValue(),
              ((Number) row.get("n")).longValue(),
              ((Number) row.get("min_ts")).longValue(),
              ((Number) row.get("max_ts")).longValue()));
    }
    units.sort(Comparator.comparing(Unit::partition).thenComparing(Unit::start));
    return units;
  }

  /**
   * Files are named for their unit ({@code topic+partition+start+end}) and the units of each
   * partition tile the offsets without overlap. Several files (partition paths) may share a unit.
   */
  static void assertUnitsTile(List<Unit> units, String topic, int partitions, long perPartition) {
    for (int p = 0; p < partitions; p++) {
      long next = 0;
      long lastStart = -1;
      long lastEnd = -1;
      for (Unit unit : units) {
        if (unit.partition() != p) {
          continue;
        }
        String name = unit.file().substring(unit.file().lastIndexOf('/') + 1);
        String[] parts = name.split("\\.")[0].split("\\+");
        assertThat(parts).as(name).hasSize(4);
        assertThat(parts[0]).as(name).isEqualTo(topic);
        assertThat(Integer.parseInt(parts[1])).as(name).isEqualTo(p);
        long start = Long.parseLong(parts[2]);
        long end = Long.parseLong(parts[3]);
        assertThat(parts[2]).as("zero-padded start in " + name).hasSize(20);
        assertThat(unit.start()).as(name).isGreaterThanOrEqualTo(start);
        assertThat(unit.end()).as(name).isLessThanOrEqualTo(end);
        if (start == lastStart) {
          assertThat(end).as("files of one unit share its range: " + name).isEqualTo(lastEnd);
          continue;
        }
        assertThat(start).as("unit after offset " + (next - 1) + ": " + name).isEqualTo(next);
        next = end + 1;
        lastStart = start;
        lastEnd = end;
      }
      assertThat(next)
          .as("units of partition " + p + " end at the last offset")
          .isEqualTo(perPartition);
    }
  }
}
