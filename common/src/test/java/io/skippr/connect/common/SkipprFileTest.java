package io.skippr.connect.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkipprFileTest {
  @TempDir Path dir;

  private static SkipprFile parse(String text) {
    return SkipprFile.parse(Path.of("skippr.yml"), text);
  }

  @Test
  void aSettingIsFoundHoweverTheFileSpellsIt() {
    assertThat(parse("skippr:\n  store:\n    type: dynamodb\n").scalar("skippr.store.type"))
        .contains("dynamodb");
    assertThat(parse("skippr: {store: {type: dynamodb}}\n").scalar("skippr.store.type"))
        .as("flow style")
        .contains("dynamodb");
    assertThat(parse("skippr.store.type: dynamodb\n").scalar("skippr.store.type"))
        .contains("dynamodb");
    assertThat(parse("skippr:\n  store:\n    name: \"state # main\"\n").scalar("skippr.store.name"))
        .as("quoted text keeps what looks like a comment")
        .contains("state # main");
  }

  @Test
  void readsNestedFlatQuotedAndCommentedScalars() {
    String yaml =
        String.join(
            "\n",
            "# Skippr",
            "skippr:",
            "  wal_s3_bucket: acme-wal   # comment",
            "  store:",
            "    type: \"dynamodb\"",
            "    name: 'acme-offsets'",
            "  pipelines:",
            "    - name: not-a-store",
            "      type: ignored",
            "  banner: |",
            "    store:",
            "      type: nope",
            "  url: \"http://h:1/#frag\"",
            "skippr.store.region: eu-west-1",
            "other:",
            "  store:",
            "    type: elsewhere");
    assertThat(parse(yaml).scalars())
        .containsEntry("skippr.wal_s3_bucket", "acme-wal")
        .containsEntry("skippr.store.type", "dynamodb")
        .containsEntry("skippr.store.name", "acme-offsets")
        .containsEntry("skippr.url", "http://h:1/#frag")
        .containsEntry("skippr.store.region", "eu-west-1")
        .containsEntry("other.store.type", "elsewhere")
        .doesNotContainKey("skippr.banner.store.type")
        .doesNotContainKey("skippr.pipelines.type");
  }

  @Test
  void nullsAndMissingKeysAreNotSettingsAndListsAreJoinedWithCommas() {
    SkipprFile file =
        parse(
            "pipelines:\n  orders:\n    namespace_fields: [a, b]\n    none: []\n"
                + "    block:\n      - 010\n      - 'x y'\n"
                + "skippr:\n  store:\n    type: ~\n");
    assertThat(file.scalar("pipelines.orders.namespace_fields")).contains("a,b");
    assertThat(file.scalar("pipelines.orders.none")).contains("");
    assertThat(file.scalar("pipelines.orders.block")).contains("010,x y");
    assertThat(file.scalar("skippr.store.type")).isEmpty();
    assertThat(file.scalar("skippr.store.name")).isEmpty();
    assertThat(parse("").scalars()).isEmpty();
  }

  @Test
  void aListWithNoFlatFormIsNoSetting() {
    SkipprFile file =
        parse("a:\n  b: [x, 'y,z']\n  c: [x, [y]]\n  d: [{e: 1}]\n  f: [x, ~]\n  g: [x]\n");
    assertThat(file.scalars()).containsExactly(Map.entry("a.g", "x"));
  }

  @Test
  void strictFlatteningRefusesAListWithNoFlatFormNamingTheKey() {
    Map.of(
            "a:\n  b: [x, 'y,z']\n",
            "a.b (item 2): a list item may not hold a comma (the list is read as its items joined"
                + " with commas); write the whole value as one string instead",
            "a: [x, [y]]\n",
            "a (item 2): a list item must be a scalar, not a list",
            "a: [{b: 1}]\n",
            "a (item 1): a list item must be a scalar, not a mapping",
            "a: [x, ~]\n",
            "a (item 2): a list item must be a scalar, not null")
        .forEach(
            (yaml, message) ->
                assertThatThrownBy(() -> FlatSettings.strict(parse(yaml).root()))
                    .isInstanceOf(FlatSettings.Refused.class)
                    .hasMessage(message));
    assertThat(FlatSettings.strict(parse("a: {b: [x, y], c: 1}\n").root()))
        .containsExactly(Map.entry("a.b", "x,y"), Map.entry("a.c", "1"));
  }

  @Test
  void badYamlNamesTheFileAndLine() {
    assertThatThrownBy(() -> parse("skippr:\n  store: [unclosed\n"))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessageStartingWith("skippr.yml: not valid YAML (line ");
  }

  @Test
  void theFileIsTheOptionElseTheVariableElseTheWorkingDirectorys() throws Exception {
    assertThat(SkipprFile.locate(Path.of("a.yml"), Map.of("SKIPPR_CONFIG", "b.yml"), dir))
        .isEqualTo(dir.resolve("a.yml"));
    assertThat(SkipprFile.locate(null, Map.of("SKIPPR_CONFIG", "b.yml"), dir))
        .isEqualTo(dir.resolve("b.yml"));
    assertThat(SkipprFile.locate(null, Map.of(), dir)).isEqualTo(dir.resolve("skippr.yml"));
    assertThat(SkipprFile.readIfPresent(dir.resolve("skippr.yml"))).isEmpty();
    Files.writeString(dir.resolve("skippr.yml"), "skippr: {store: {name: x}}");
    assertThat(
            SkipprFile.readIfPresent(dir.resolve("skippr.yml"))
                .orElseThrow()
                .scalar("skippr.store.name"))
        .contains("x");
  }

  @Test
  void everyScalarIsTheTextItIsWrittenWith() {
    // Found by SkipprFileFuzzTest: read by YAML 1.1 rules, "010" was the setting "8", "0x1F"
    // "31", "on" "true", "1.50" "1.5", "1e3" "1000.0", and ".inf" refused the whole file.
    SkipprFile file =
        parse(
            "skippr:\n  store:\n    name: 010\n    region: 0x1F\n    type: on\n"
                + "  a: 1.50\n  b: 1e3\n  c: .inf\n  d: 'quoted'\n  e: ~\n  f: null\n  g:\n");
    assertThat(file.scalars())
        .containsEntry("skippr.store.name", "010")
        .containsEntry("skippr.store.region", "0x1F")
        .containsEntry("skippr.store.type", "on")
        .containsEntry("skippr.a", "1.50")
        .containsEntry("skippr.b", "1e3")
        .containsEntry("skippr.c", ".inf")
        .containsEntry("skippr.d", "quoted")
        .doesNotContainKeys("skippr.e", "skippr.f", "skippr.g");
    assertThat(file.root().path("skippr").path("store").path("name").isTextual()).isTrue();
  }

  @Test
  void anAliasIsRefusedWithItsLine() {
    // "c: *x" read as the text "x", the anchor's name, and the billion laughs were a list of
    // names.
    assertThatThrownBy(() -> parse("a: &x {b: 1}\nc: *x\n"))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessage(
            "skippr.yml: line 2: an alias (*x): aliases and merge keys are not supported, write"
                + " the value out");
    assertThatThrownBy(() -> parse("base: &b {type: rocksdb}\nskippr:\n  store:\n    <<: *b\n"))
        .hasMessageContaining("line 4: an alias (*b)");
    assertThat(parse("a: &x hello\n").scalar("a"))
        .as("an anchor alone is harmless")
        .contains("hello");
  }

  @Test
  void aKeyGivenTwiceInOneMappingIsRefused() {
    // The later value won without a word, so a second "pipelines:" replaced the first one's
    // pipelines.
    assertThatThrownBy(() -> parse("skippr:\n  store:\n    type: dynamodb\n    type: rocksdb\n"))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessage("skippr.yml: line 4: the key 'type' is given twice in one mapping");
    assertThatThrownBy(() -> parse("pipelines: {a: {}}\npipelines: {b: {}}\n"))
        .hasMessageContaining("line 2: the key 'pipelines' is given twice");
  }

  @Test
  void aSecondDocumentIsRefused() {
    // Everything after a "---" line was ignored without a word.
    assertThatThrownBy(() -> parse("skippr: {store: {type: rocksdb}}\n---\nskippr: {x: 1}\n"))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessage("skippr.yml: line 3: a second document: skippr.yml holds one");
    assertThat(parse("---\nskippr: {store: {type: rocksdb}}\n...\n").scalar("skippr.store.type"))
        .contains("rocksdb");
  }

  @Test
  void onlyARegularFileOfAtMost3MiBOfUtf8IsRead() throws Exception {
    // A skippr.yml linked to /dev/zero was read until the heap was full (the plugins read the
    // file in the worker); a FIFO blocked the reader.
    Path zero = dir.resolve("zero.yml");
    Files.createSymbolicLink(zero, Path.of("/dev/zero"));
    assertThatThrownBy(() -> SkipprFile.readIfPresent(zero))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessage(zero + " is not a regular file");
    assertThatThrownBy(() -> SkipprFile.readIfPresent(dir))
        .hasMessage(dir + " is not a regular file");
    Path huge = dir.resolve("huge.yml");
    Files.write(huge, ("a: " + "x".repeat(3 << 20) + "\n").getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> SkipprFile.readIfPresent(huge))
        .hasMessage(huge + " is larger than 3 MiB");
    Path latin1 = dir.resolve("latin1.yml");
    Files.write(latin1, new byte[] {'a', ':', ' ', (byte) 0xE9, '\n'});
    assertThatThrownBy(() -> SkipprFile.readIfPresent(latin1))
        .hasMessage(latin1 + " is not UTF-8 text");
    assertThat(SkipprFile.readIfPresent(dir.resolve("missing.yml"))).isEmpty();
  }

  @Test
  void aSettingSpelledBothWithDotsAndNestedIsRefused() {
    // The one spelled later won without a word.
    assertThatThrownBy(
            () -> parse("skippr.store.type: dynamodb\nskippr:\n  store:\n    type: rocksdb\n"))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessage(
            "skippr.yml: skippr.store.type is given twice, once with dots in its key and once"
                + " nested");
    assertThat(parse("skippr.store.type: dynamodb\nskippr:\n  store:\n    name: t\n").scalars())
        .containsEntry("skippr.store.type", "dynamodb")
        .containsEntry("skippr.store.name", "t");
  }

  @Test
  void nestingDeeperThanAHundredLevelsIsRefused() {
    // Found by SkipprFileFuzzTest, by its run time: the YAML parser's time grows faster than the
    // depth, and 1,000 levels (the JSON reader's limit) of nested lists in 2 KB took a quarter of
    // a second, so 3 MiB of them took minutes.
    assertThatThrownBy(() -> parse("a:\n  b: " + "[".repeat(1000) + "]".repeat(1000)))
        .isInstanceOf(SkipprFile.SkipprFileException.class)
        .hasMessage("skippr.yml: line 2: collections nested deeper than 100 levels");
    StringBuilder block = new StringBuilder();
    for (int i = 0; i <= 100; i++) {
      block.append("  ".repeat(i)).append("k:\n");
    }
    assertThatThrownBy(() -> parse(block.toString()))
        .hasMessageContaining("Document nesting depth (101) exceeds the maximum allowed (100");
    assertThat(parse("a: '" + "[".repeat(500) + "'\n# " + "{".repeat(500)).scalar("a"))
        .as("brackets in quotes and comments are text")
        .contains("[".repeat(500));
    assertThat(parse("a: " + "[".repeat(99) + "x" + "]".repeat(99)).root().path("a").isArray())
        .isTrue();
  }
}
