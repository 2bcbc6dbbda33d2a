package io.skippr.connect.lake.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.RecordRejectedException;
import io.skippr.connect.lake.partition.PartitioningConfig.Kind;
import io.skippr.connect.lake.partition.PartitioningConfig.TimestampSource;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class PartitionersTest {
  /** 2024-05-01T07:45:12.345Z. */
  private static final long MAY_1 = 1_714_549_512_345L;

  private static final long HOUR = 3_600_000L;
  private static final long DAY = 86_400_000L;
  private static final String HOURLY = "'dt'=YYYY-MM-dd/'hour'=HH";

  private static final Schema CUSTOMER =
      SchemaBuilder.struct()
          .optional()
          .field("country", Schema.OPTIONAL_STRING_SCHEMA)
          .field("since", Date.builder().optional().build())
          .build();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .field("region", Schema.OPTIONAL_STRING_SCHEMA)
          .field("n", Schema.OPTIONAL_INT64_SCHEMA)
          .field("amount", Decimal.builder(2).optional().build())
          .field("at", Timestamp.builder().optional().build())
          .field("at_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .field("at_text", Schema.OPTIONAL_STRING_SCHEMA)
          .field("customer", CUSTOMER)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .build();

  private static Struct row(String region) {
    return new Struct(ROW)
        .put("region", region)
        .put("n", 42L)
        .put("amount", new BigDecimal("10.50"))
        .put("at", new java.util.Date(MAY_1))
        .put("at_ms", MAY_1)
        .put("at_text", "2024-05-01T09:45:12.345+02:00")
        .put(
            "customer",
            new Struct(CUSTOMER)
                .put("country", "DE")
                .put("since", new java.util.Date(19_000 * DAY)))
        .put("tags", List.of("a"));
  }

  private static SinkRecord record(Long timestamp) {
    // after a transform moved it: now topic "routed" partition 7, originally partition 3
    return new SinkRecord(
        "routed",
        7,
        null,
        null,
        ROW,
        null,
        100L,
        timestamp,
        TimestampType.CREATE_TIME,
        List.of(),
        "orders",
        3,
        100L);
  }

  private static PartitioningConfig config(
      Kind kind,
      List<String> fields,
      String format,
      long duration,
      TimestampSource source,
      String zone) {
    return new PartitioningConfig(
        kind, fields, format, duration, source, "at", ZoneId.of(zone), Locale.ROOT);
  }

  private static Partitioner time(String format, long duration, String zone) {
    return Partitioners.create(
        config(Kind.TIME, List.of(), format, duration, TimestampSource.RECORD, zone));
  }

  private static Partitioner fields(String... names) {
    return Partitioners.create(
        config(Kind.FIELD, List.of(names), "", -1, TimestampSource.RECORD, "UTC"));
  }

  /** Hourly UTC partitions by a timestamp field of the row. */
  private static Partitioner byField(String field) {
    return Partitioners.create(
        new PartitioningConfig(
            Kind.TIME,
            List.of(),
            HOURLY,
            HOUR,
            TimestampSource.RECORD_FIELD,
            field,
            ZoneId.of("UTC"),
            Locale.ROOT));
  }

  private static String at(Partitioner partitioner, long timestamp) {
    return partitioner.partitionPath(record(timestamp), row("eu"), 0L);
  }

  @Test
  void defaultUsesTheOriginalKafkaPartition() {
    Partitioner partitioner = Partitioners.create(PartitioningConfig.defaults());
    assertThat(partitioner.partitionPath(record(MAY_1), row("eu"), 0L)).isEqualTo("partition=3");
    SinkRecord plain = new SinkRecord("t", 5, null, null, ROW, null, 1L);
    assertThat(partitioner.partitionPath(plain, row("eu"), 0L)).isEqualTo("partition=5");
  }

  @Test
  void fieldPartitionerWritesOneSegmentPerField() {
    Partitioner partitioner = fields("region", "customer.country", "n");
    assertThat(partitioner.partitionPath(record(MAY_1), row("eu"), 0L))
        .isEqualTo("region=eu/customer.country=DE/n=42");
    assertThat(partitioner.partitionPath(record(MAY_1), row("../x"), 0L))
        .isEqualTo("region=%2E.%2Fx/customer.country=DE/n=42");
    assertThat(partitioner.partitionPath(record(MAY_1), row(null), 0L))
        .isEqualTo("region=__HIVE_DEFAULT_PARTITION__/customer.country=DE/n=42");
    assertThat(partitioner.partitionPath(record(MAY_1), row(""), 0L))
        .isEqualTo("region=__empty__/customer.country=DE/n=42");
    Struct noCustomer = row("eu").put("customer", null);
    assertThat(partitioner.partitionPath(record(MAY_1), noCustomer, 0L))
        .isEqualTo("region=eu/customer.country=__HIVE_DEFAULT_PARTITION__/n=42");
  }

  @Test
  void fieldValuesOfLogicalTypesRenderAsText() {
    Partitioner partitioner = fields("amount", "at", "customer.since");
    assertThat(partitioner.partitionPath(record(MAY_1), row("eu"), 0L))
        .isEqualTo("amount=10.50/at=2024-05-01T07%3A45%3A12.345Z/customer.since=2022-01-08");
  }

  @Test
  void fieldPartitionerRejectsMissingAndNonPrimitiveFields() {
    Partitioner missing = fields("customer.city");
    assertThatThrownBy(() -> missing.partitionPath(record(MAY_1), row("eu"), 0L))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("partition field 'customer.city' is not a field of the row");
    Partitioner list = fields("tags");
    assertThatThrownBy(() -> list.partitionPath(record(MAY_1), row("eu"), 0L))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("partition field 'tags' has type array");
  }

  @Test
  void dottedFieldNamesWinOverNesting() {
    Schema flat = SchemaBuilder.struct().field("customer.country", Schema.STRING_SCHEMA).build();
    Partitioner partitioner = fields("customer.country");
    Struct row = new Struct(flat).put("customer.country", "FR");
    assertThat(partitioner.partitionPath(record(MAY_1), row, 0L)).isEqualTo("customer.country=FR");
  }

  @Test
  void timePartitionerFloorsAndFormatsInTheTimezone() {
    assertThat(at(time(HOURLY, HOUR, "UTC"), MAY_1)).isEqualTo("dt=2024-05-01/hour=07");
    assertThat(at(time(HOURLY, HOUR, "Europe/Berlin"), MAY_1)).isEqualTo("dt=2024-05-01/hour=09");
    assertThat(at(time(HOURLY, HOUR, "Asia/Kolkata"), MAY_1)).isEqualTo("dt=2024-05-01/hour=13");
    // 15-minute partitions
    Partitioner quarter = time("'dt'=YYYYMMdd/'t'=HHmm", 15 * 60_000L, "UTC");
    assertThat(at(quarter, MAY_1)).isEqualTo("dt=20240501/t=0745");
    assertThat(at(quarter, MAY_1 - 13_000L)).isEqualTo("dt=20240501/t=0730");
    // daily partitions start at local midnight
    long lateMay1Utc = 1_714_602_600_000L; // 2024-05-01T22:30Z
    assertThat(at(time("'dt'=YYYY-MM-dd", DAY, "UTC"), lateMay1Utc)).isEqualTo("dt=2024-05-01");
    assertThat(at(time("'dt'=YYYY-MM-dd", DAY, "Europe/Berlin"), lateMay1Utc))
        .isEqualTo("dt=2024-05-02");
    long earlyMay1Utc = 1_714_528_800_000L; // 2024-05-01T02:00Z
    assertThat(at(time("'dt'=YYYY-MM-dd", DAY, "America/New_York"), earlyMay1Utc))
        .isEqualTo("dt=2024-04-30");
    // before 1970 floors downwards
    assertThat(at(time(HOURLY, HOUR, "UTC"), -1L)).isEqualTo("dt=1969-12-31/hour=23");
    // no duration: path.format alone decides
    assertThat(at(time("'m'=mm", -1, "UTC"), MAY_1)).isEqualTo("m=45");
  }

  @Test
  void daylightSavingTransitions() {
    Partitioner berlin = time(HOURLY, HOUR, "Europe/Berlin");
    // spring forward 2024-03-31: 02:00 CET becomes 03:00 CEST
    assertThat(at(berlin, 1_711_845_000_000L)).isEqualTo("dt=2024-03-31/hour=01"); // 00:30Z
    assertThat(at(berlin, 1_711_848_600_000L)).isEqualTo("dt=2024-03-31/hour=03"); // 01:30Z
    // fall back 2024-10-27: both passes through 02:xx share a directory
    assertThat(at(berlin, 1_729_989_000_000L)).isEqualTo("dt=2024-10-27/hour=02"); // 00:30Z
    assertThat(at(berlin, 1_729_992_600_000L)).isEqualTo("dt=2024-10-27/hour=02"); // 01:30Z
    assertThat(at(berlin, 1_729_996_200_000L)).isEqualTo("dt=2024-10-27/hour=03"); // 02:30Z
  }

  @Test
  void jodaYearLettersMeanTheCalendarYear() {
    long dec30 = 1_735_560_000_000L; // 2024-12-30T12:00Z, ISO week-year 2025
    assertThat(at(time("'year'=YYYY/'y'=yyyy", HOUR, "UTC"), dec30)).isEqualTo("year=2024/y=2024");
  }

  @Test
  void localeNamesMonthsAndTextIsEncoded() {
    Partitioner german =
        Partitioners.create(
            new PartitioningConfig(
                Kind.TIME,
                List.of(),
                "'month'=MMMM/EEEE",
                DAY,
                TimestampSource.RECORD,
                "at",
                ZoneId.of("UTC"),
                Locale.GERMANY));
    assertThat(at(german, MAY_1)).isEqualTo("month=Mai/Mittwoch");
    Partitioner french =
        Partitioners.create(
            new PartitioningConfig(
                Kind.TIME,
                List.of(),
                "'mois'=MMMM",
                DAY,
                TimestampSource.RECORD,
                "at",
                ZoneId.of("UTC"),
                Locale.FRANCE));
    long feb = MAY_1 - 80 * DAY; // 2024-02-11
    assertThat(at(french, feb)).isEqualTo("mois=f%C3%A9vrier");
  }

  @Test
  void recordFieldTimestamps() {
    for (String field : List.of("at", "at_ms", "at_text")) {
      Partitioner partitioner = byField(field);
      assertThat(partitioner.partitionPath(record(0L), row("eu"), 0L))
          .as(field)
          .isEqualTo("dt=2024-05-01/hour=07");
    }
  }

  @Test
  void missingTimestampsAreRejectedWithTheFieldName() {
    assertThatThrownBy(
            () -> byField("at").partitionPath(record(MAY_1), row("eu").put("at", null), 0L))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("timestamp field 'at' is null");
    Partitioner byText = byField("at_text");
    assertThatThrownBy(
            () -> byText.partitionPath(record(MAY_1), row("eu").put("at_text", "soon"), 0L))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("timestamp field 'at_text' holds String \"soon\"");
    Partitioner byMissing = byField("event.ts");
    assertThatThrownBy(() -> byMissing.partitionPath(record(MAY_1), row("eu"), 0L))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("timestamp field 'event.ts' is not a field of the row");
    Partitioner byRecord = time(HOURLY, HOUR, "UTC");
    assertThatThrownBy(() -> byRecord.partitionPath(record(null), row("eu"), 0L))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("record has no timestamp");
  }

  @Test
  void wallclockUsesTheUnitInstantOnly() {
    Partitioner partitioner =
        Partitioners.create(
            config(Kind.TIME, List.of(), HOURLY, HOUR, TimestampSource.WALLCLOCK, "UTC"));
    // the record's own timestamp (null here) plays no part
    assertThat(partitioner.partitionPath(record(null), row("eu"), MAY_1))
        .isEqualTo("dt=2024-05-01/hour=07");
    assertThat(partitioner.partitionPath(record(0L), row("eu"), MAY_1 + 2 * HOUR))
        .isEqualTo("dt=2024-05-01/hour=09");
  }

  @Test
  void fieldAndTimeCombined() {
    Partitioner partitioner =
        Partitioners.create(
            config(
                Kind.FIELD_TIME, List.of("region"), HOURLY, HOUR, TimestampSource.RECORD, "UTC"));
    assertThat(partitioner.partitionPath(record(MAY_1), row("eu/west"), 0L))
        .isEqualTo("region=eu%2Fwest/dt=2024-05-01/hour=07");
  }

  @Test
  void timeSegmentsFromTheFormatAreEncodedToo() {
    // a literal that would be unsafe in a path is encoded like any value
    assertThat(at(time("'a b'=YYYY/'..'", DAY, "UTC"), MAY_1)).isEqualTo("a%20b=2024/%2E.");
  }
}
