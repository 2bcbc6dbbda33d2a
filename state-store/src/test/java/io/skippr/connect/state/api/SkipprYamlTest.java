package io.skippr.connect.state.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SkipprYamlTest {
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
    var values = SkipprYaml.parse(yaml);
    assertThat(values)
        .containsEntry("skippr.wal_s3_bucket", "acme-wal")
        .containsEntry("skippr.store.type", "dynamodb")
        .containsEntry("skippr.store.name", "acme-offsets")
        .containsEntry("skippr.url", "http://h:1/#frag")
        .containsEntry("skippr.store.region", "eu-west-1")
        .containsEntry("other.store.type", "elsewhere")
        .doesNotContainKey("skippr.banner.store.type")
        .doesNotContainKey("skippr.pipelines.type");
  }
}
