package io.skippr.connect.cli.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.cli.discover.CommandRun;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr sql} over lakes whose logs the tests write: views over exactly the live files,
 * merge_by_key tables as their current state, the output formats and one-line errors.
 */
class SqlCommandTest {
  private static final String CPU_ROWS_1 =
      "select * from (values ('h1', 1.5::double), ('h2', 2.5), ('h1', 3.5)) t(host, usage)";
  private static final String CPU_ROWS_2 =
      "select * from (values ('h2', 4.5::double), ('h3', 5.5)) t(host, usage)";

  @TempDir Path root;
  private LogLake lake;

  @BeforeEach
  void open() throws Exception {
    lake = new LogLake(root);
  }

  @AfterEach
  void close() throws Exception {
    lake.close();
  }

  @Test
  void anAppendedTableIsItsLiveFilesOnlyBeforeAndAfterAMerge() throws Exception {
    String first = lake.commit("demo.cpu", "demo.cpu", 0, 0, 2, CPU_ROWS_1);
    String second = lake.commit("demo.cpu", "demo.cpu", 0, 3, 4, CPU_ROWS_2);
    // Left by a crash: on disk in the table's directory, in no log.
    lake.orphan(
        LogLake.unitKey("demo.cpu", "demo.cpu", 0, "00000000000000000005+00000000000000000009"),
        CPU_ROWS_1);
    String query =
        "select host, count(*) as n, sum(usage) as total from \"demo.cpu\" group by host order by"
            + " host";
    String expected = "host,n,total\nh1,2,5.0\nh2,2,7.0\nh3,1,5.5\n";

    assertThat(sql("--output", "csv", query)).isEqualTo(new CommandRun(0, expected, ""));

    // Merged: the inputs stay on disk for their grace, retired; the output holds their rows.
    lake.merge(
        "demo.cpu",
        0,
        List.of(first, second),
        LogLake.unitKey(
            "demo.cpu", "demo.cpu", 0, "00000000000000000000+00000000000000000004+m0a1b"),
        CPU_ROWS_1 + " union all " + CPU_ROWS_2,
        () -> {});
    assertThat(Files.exists(root.resolve(first))).isTrue();
    assertThat(sql("--output", "csv", query)).isEqualTo(new CommandRun(0, expected, ""));
  }

  @Test
  void aMergeByKeyTableIsTheLastRowOfEachKeyWithoutDeletedKeys() throws Exception {
    String p0a =
        lake.commit(
            "orders",
            "orders",
            0,
            0,
            2,
            "select * from (values ('k1', 'a', false), ('k2', 'a', false), ('k1', 'b', false))"
                + " t(__key, v, __deleted)");
    String p0b =
        lake.commit(
            "orders",
            "orders",
            0,
            3,
            4,
            "select * from (values ('k2', null, true), ('k3', 'a', false)) t(__key, v, __deleted)");
    lake.commit(
        "orders",
        "orders",
        1,
        0,
        1,
        "select * from (values ('k9', 'a', false), ('k9', 'b', false)) t(__key, v, __deleted)");
    String query = "select __key, v from orders order by __key";

    assertThat(sql("--merge-key", "orders", "--output", "csv", query).out())
        .isEqualTo("__key,v\nk1,b\nk3,a\nk9,b\n");
    assertThat(sql("--output", "csv", "select count(*) as n from orders").out())
        .as("without --merge-key every row of the files")
        .isEqualTo("n\n7\n");

    // The merge writes the state with k2's delete marker; a unit committed while it ran
    // resurrects k2, changes k3 and deletes k1 (Debezium's op=d), and is listed before the
    // merged file in the log.
    lake.merge(
        "orders",
        0,
        List.of(p0a, p0b),
        LogLake.unitKey("orders", "orders", 0, "00000000000000000000+00000000000000000004+m9f"),
        "select * from (values ('k1', 'b', false), ('k2', null, true), ('k3', 'a', false))"
            + " t(__key, v, __deleted)",
        () ->
            lake.commit(
                "orders",
                "orders",
                0,
                5,
                7,
                "select * from (values ('k3', 'c', 'c'), ('k2', 'z', 'c'), ('k1', null, 'd'))"
                    + " t(__key, v, op)"));

    assertThat(sql("--merge-key", "orders", "--output", "csv", query).out())
        .isEqualTo("__key,v\nk2,z\nk3,c\nk9,b\n");
  }

  @Test
  void theLakesRecordedPolicyMakesAMergeByKeyTableItsStateWithoutOptions() throws Exception {
    lake.commit(
        "orders",
        "orders",
        0,
        0,
        3,
        "select * from (values (1, 'a', 'c'), (2, 'a', 'c'), (1, 'b', 'u'), (2, null, 'd'))"
            + " t(id, v, op)");
    String query = "select id, v from orders order by id";
    assertThat(sql("--output", "csv", query).out())
        .as("a lake without a record: appended, as before")
        .isEqualTo("id,v\n1,a\n1,b\n2,a\n2,\n");

    TablePolicyLog policies = new TablePolicyLog(new LocalLakeStorage(root), new LakeLayout());
    policies.record("orders", new TablePolicyLog.Policy("merge_by_key", List.of("id")));
    assertThat(sql("--output", "csv", query)).isEqualTo(new CommandRun(0, "id,v\n1,b\n", ""));
    assertThat(sql("--tables", "--output", "csv").out()).contains("orders,merge_by_key(id),1,4,");
    assertThat(
            sql("--merge-key", "orders=v", "--output", "csv", "select count(*) as n from orders"))
        .as("--merge-key over the record")
        .isEqualTo(new CommandRun(0, "n\n2\n", ""));

    policies.record("orders", new TablePolicyLog.Policy("append", List.of()));
    assertThat(sql("--output", "csv", "select count(*) as n from orders").out())
        .as("the latest recorded policy applies")
        .isEqualTo("n\n4\n");
  }

  @Test
  void aDamagedPolicyRecordIsRefusedInOneLine() throws Exception {
    lake.commit("t", "t", 0, 0, 0, "select 1 as id");
    LocalLakeStorage storage = new LocalLakeStorage(root);
    LakeLayout layout = new LakeLayout();
    new TablePolicyLog(storage, layout)
        .record("t", new TablePolicyLog.Policy("merge_by_key", List.of("id")));
    Path key = root.resolve(layout.policyKey("t", 1));
    Files.writeString(key, Files.readString(key).replace("[\"id\"]", "[\"v\"]"));

    CommandRun damaged = sql("select * from t");
    assertThat(damaged.exit()).isEqualTo(1);
    assertThat(damaged.err())
        .startsWith("skippr sql: table policy ")
        .contains("fails its checksum")
        .contains("restored from a backup");
    assertThat(damaged.err().lines()).hasSize(1);
  }

  @Test
  void aLiveFileNotYetMovedIntoItsTableIsReadWhereItIsStaged() throws Exception {
    lake.commit("t", "t", 0, 0, 1, "select * from (values (1), (2)) t(id)");
    String staged = lake.commit("t", "t", 0, 2, 2, "select 3 as id");
    Path stagedPath = root.resolve(new LakeLayout().stagedKey(staged));
    Files.createDirectories(stagedPath.getParent());
    Files.move(root.resolve(staged), stagedPath);

    assertThat(sql("--output", "csv", "select sum(id) as s, count(*) as n from t"))
        .isEqualTo(new CommandRun(0, "s,n\n6,3\n", ""));
  }

  @Test
  void keyFieldsAndGenerationsOrderTheVersions() throws Exception {
    // Generation 10 comes after generation 2, though its file name sorts before it.
    lake.commit("t", "t", 0, 0, 0, 0, "select 7 as id, 1 as part, 'gen0' as v");
    lake.commit("t", "t", 0, 10, 0, 0, "select 7 as id, 1 as part, 'gen10' as v");
    lake.commit("t", "t", 0, 2, 0, 0, "select 7 as id, 1 as part, 'gen2' as v");
    lake.commit("t", "t", 0, 10, 1, 1, "select 7 as id, 2 as part, 'other key' as v");

    assertThat(sql("--merge-key", "t=id,part", "--output", "csv", "select v from t order by v"))
        .isEqualTo(new CommandRun(0, "v\ngen10\nother key\n", ""));
  }

  @Test
  void tablesListsPolicyFilesRowsBytesAndLastCommit() throws Exception {
    String a = lake.commit("demo.cpu", "demo.cpu", 0, 0, 2, CPU_ROWS_1);
    String b = lake.commit("demo.cpu", "demo.cpu", 0, 3, 4, CPU_ROWS_2);
    String c = lake.commit("orders", "orders", 0, 0, 0, "select 'k' as __key, 1 as v");
    long cpuBytes = Files.size(root.resolve(a)) + Files.size(root.resolve(b));
    long orderBytes = Files.size(root.resolve(c));

    // LogLake's clock: 2026-01-01T00:00:00Z, one second more for each file written.
    assertThat(sql("--tables", "--merge-key", "orders", "--output", "csv"))
        .isEqualTo(
            new CommandRun(
                0,
                "table,policy,files,rows,bytes,last_commit\n"
                    + "demo.cpu,append,2,5,"
                    + cpuBytes
                    + ",2026-01-01T00:00:02Z\n"
                    + "orders,merge_by_key(__key),1,1,"
                    + orderBytes
                    + ",2026-01-01T00:00:03Z\n",
                ""));
  }

  @Test
  void printsTablesCsvAndJson() throws Exception {
    lake.commit(
        "t",
        "t",
        0,
        0,
        1,
        "select * from (values (1, 'x,y', null::varchar, [1, 2], {'k': 'v'}, '' ),"
            + " (22, 'say \"hi\"', 'z', [], {'k': null}, 'e')) t(a, b, c, l, s, e)");
    String query = "select a, b, c, l, s, e from t order by a";

    assertThat(sql("--output", "table", query).out())
        .isEqualTo(
            String.join(
                "\n",
                " a  | b        | c    | l      | s           | e",
                "----+----------+------+--------+-------------+---",
                "  1 | x,y      | NULL | [1, 2] | {'k': v}    |",
                " 22 | say \"hi\" | z    | []     | {'k': NULL} | e",
                "(2 rows)",
                ""));
    assertThat(sql("--output", "csv", query).out())
        .isEqualTo(
            "a,b,c,l,s,e\n"
                + "1,\"x,y\",,\"[1, 2]\",{'k': v},\"\"\n"
                + "22,\"say \"\"hi\"\"\",z,[],{'k': NULL},e\n");
    assertThat(sql("--output", "json", query).out())
        .isEqualTo(
            "[\n"
                + "{\"a\":1,\"b\":\"x,y\",\"c\":null,\"l\":[1,2],\"s\":{\"k\":\"v\"},\"e\":\"\"},\n"
                + "{\"a\":22,\"b\":\"say \\\"hi\\\"\",\"c\":\"z\",\"l\":[],\"s\":{\"k\":null},"
                + "\"e\":\"e\"}\n"
                + "]\n");
    assertThat(sql("--output", "json", "select 1 as a where false").out()).isEqualTo("[]\n");
  }

  @Test
  void instantsPrintInFullIso8601Utc() throws Exception {
    lake.commit(
        "t",
        "t",
        0,
        0,
        0,
        "select timestamptz '2026-12-01 10:00:00+01' as placed_at,"
            + " [timestamptz '2026-12-01 09:00:00.5+00'] as seen_at");

    assertThat(sql("--output", "csv", "select placed_at from t").out())
        .isEqualTo("placed_at\n2026-12-01T09:00:00Z\n");
    assertThat(sql("--output", "json", "select placed_at, seen_at from t").out())
        .isEqualTo(
            "[\n{\"placed_at\":\"2026-12-01T09:00:00Z\",\"seen_at\":[\"2026-12-01T09:00:00.500Z\"]}\n]\n");
  }

  @Test
  void errorsAreOneLineWithExitCodeOne() throws Exception {
    lake.commit("t", "t", 0, 0, 0, "select 1 as a");

    CommandRun syntax = sql("selec * from t");
    assertThat(syntax.exit()).isEqualTo(1);
    assertThat(syntax.out()).isEmpty();
    assertThat(syntax.err()).startsWith("skippr sql: Parser Error: syntax error at or near");
    assertThat(syntax.err().lines()).hasSize(1);

    CommandRun missing = sql("select * from \"demo.nope\"");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).startsWith("skippr sql: Catalog Error: Table with name demo.nope");
    assertThat(missing.err().lines()).hasSize(1);

    CommandRun noKey = sql("--merge-key", "t=id", "select * from t");
    assertThat(noKey)
        .isEqualTo(
            new CommandRun(
                1,
                "",
                "skippr sql: t is read as merge_by_key but its files have no key column id\n"));

    assertThat(sql("--merge-key", "x", "select 1").err())
        .startsWith("skippr sql: --merge-key names x, which has no live file in ")
        .endsWith(" (tables: t)\n");
    assertThat(CommandRun.of(new SqlCommand(), List.of("select 1")))
        .isEqualTo(
            new CommandRun(
                1,
                "",
                "skippr sql: name the lake: --lake DIR|s3://BUCKET/PREFIX, or --connect-url with"
                    + " --connector to read it from the connector's config\n"));
    assertThat(sql().err())
        .isEqualTo("skippr sql: give a QUERY (- reads it from standard input), or --tables\n");
  }

  private CommandRun sql(String... args) {
    List<String> all = new ArrayList<>(List.of("--lake", root.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(new SqlCommand(), all);
  }
}
