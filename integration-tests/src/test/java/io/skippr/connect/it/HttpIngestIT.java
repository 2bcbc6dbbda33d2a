package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.InfluxJsClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP ingest inside a real Connect worker loading the built plugin: the official InfluxDB v2
 * JavaScript client and raw HTTP (v1, v3, JSON) write, and every accepted row is read back from
 * Kafka exactly once and exactly as sent.
 */
class HttpIngestIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "it-token";

  private static ConnectCluster cluster;
  private static HttpIngest ingest;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("http-ingest-it");
    ingest = new HttpIngest(cluster, Map.of("auth.token", TOKEN));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void influxJsClientWritesLandExactlyAsSent() throws Exception {
    int count = 600;
    ArrayNode points = JSON.createArrayNode();
    for (int i = 0; i < count; i++) {
      ObjectNode p = points.addObject();
      p.put("measurement", "js weather");
      ObjectNode tags = p.putObject("tags");
      tags.put("location", i % 2 == 0 ? "us,mid west" : "eu=north");
      tags.put("sensor", "s-" + (i % 7) + "\u00e9");
      ObjectNode fields = p.putObject("fields");
      fields.putObject("temperature").put("type", "float").put("value", i + 0.25);
      fields.putObject("count").put("type", "int").put("value", i * 1000L - 5);
      fields.putObject("total").put("type", "uint").put("value", Long.toString(i * 7L));
      fields.putObject("ok").put("type", "boolean").put("value", i % 3 == 0);
      fields.putObject("note").put("type", "string").put("value", "say \"hi\" \\ " + i);
      p.put("time", Long.toString(1_700_000_000_000_000_000L + i * 1_000_000L));
    }
    String output =
        InfluxJsClient.write(ingest.url(), TOKEN, "org", "bucket-js", points.toString());
    assertThat(output).contains("written");

    List<HttpIngest.Record> records = ingest.read(HttpIngest.PREFIX + "_js_20weather", count);
    assertThat(records).hasSize(count);
    Map<Long, HttpIngest.Record> byTime = new TreeMap<>();
    records.forEach(r -> byTime.put((Long) ((Struct) r.value()).get("time_ns"), r));
    assertThat(byTime).hasSize(count);
    for (int i = 0; i < count; i++) {
      long nanos = 1_700_000_000_000_000_000L + i * 1_000_000L;
      long millis = 1_700_000_000_000L + i;
      HttpIngest.Record r = byTime.get(nanos);
      String location = i % 2 == 0 ? "us\\,mid\\ west" : "eu\\=north";
      assertThat(r.key())
          .isEqualTo(
              "js\\ weather,location=" + location + ",sensor=s-" + (i % 7) + "\u00e9 " + nanos);
      assertThat(r.timestamp()).as("the arrival, not the point's time").isGreaterThan(millis);
      Struct v = (Struct) r.value();
      assertThat(v.get("time")).isEqualTo(new Date(millis));
      assertThat(v.get("location")).isEqualTo(i % 2 == 0 ? "us,mid west" : "eu=north");
      assertThat(v.get("temperature")).isEqualTo(i + 0.25);
      assertThat(v.get("count")).isEqualTo(i * 1000L - 5);
      assertThat(v.get("total")).isEqualTo(i * 7L);
      assertThat(v.get("ok")).isEqualTo(i % 3 == 0);
      assertThat(v.get("note")).isEqualTo("say \"hi\" \\ " + i);
    }
  }

  @Test
  void v1AndV3WritesWithPrecisionAndPartialRejections() throws Exception {
    HttpResponse<String> v1 =
        ingest.post(
            "/write?db=legacy&precision=s&u=user&p=" + TOKEN,
            "v1m,host=a value=1i 1700000000\nv1m,host=b value=2i 1700000001\n");
    assertThat(v1.statusCode()).as(v1.body()).isEqualTo(204);
    List<HttpIngest.Record> v1Records = ingest.read(HttpIngest.PREFIX + "v1m", 2);
    assertThat(v1Records)
        .extracting(HttpIngest.Record::key, r -> ((Struct) r.value()).get("time_ns"))
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "v1m,host=a 1700000000000000000", 1_700_000_000_000_000_000L),
            org.assertj.core.groups.Tuple.tuple(
                "v1m,host=b 1700000001000000000", 1_700_000_001_000_000_000L));

    HttpResponse<String> v3 =
        ingest.post(
            "/api/v3/write_lp?db=d&precision=millisecond",
            "v3m f=1.5 1700000000000\nv3m f= 1700000000001\nv3m f=2.5 1700000000002\n",
            "Authorization",
            "Bearer " + TOKEN);
    assertThat(v3.statusCode()).isEqualTo(400);
    JsonNode body = JSON.readTree(v3.body());
    assertThat(body.get("accepted").asInt()).isEqualTo(2);
    assertThat(body.get("rejections").get(0).get("line").asInt()).isEqualTo(2);
    assertThat(ingest.read(HttpIngest.PREFIX + "v3m", 2))
        .extracting(r -> ((Struct) r.value()).get("f"))
        .containsExactlyInAnyOrder(1.5, 2.5);
    List<HttpIngest.Record> rejections = ingest.read(HttpIngest.PREFIX + "_rejections", 1);
    Struct rejection = (Struct) rejections.get(0).value();
    assertThat(rejection.get("position")).isEqualTo(2L);
    assertThat(rejection.get("reason")).isEqualTo("missing value for field 'f' at column 7");
    assertThat(rejection.get("input")).isEqualTo("v3m f= 1700000000001");
  }

  @Test
  void jsonItemsBecomeSchemalessRecords() throws Exception {
    HttpResponse<String> r =
        ingest.post(
            "/ingest/orders",
            "[{\"id\":1,\"items\":[{\"sku\":\"a\",\"qty\":2}],\"paid\":true},{\"id\":2,\"note\":null}]",
            "Authorization",
            "Token " + TOKEN);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    List<HttpIngest.Record> records = ingest.read(HttpIngest.PREFIX + "orders", 2);
    List<Object> values = new ArrayList<>();
    records.forEach(rec -> values.add(rec.value()));
    Map<String, Object> second = new HashMap<>();
    second.put("id", 2L);
    second.put("note", null);
    assertThat(values)
        .containsExactlyInAnyOrder(
            Map.of("id", 1L, "items", List.of(Map.of("sku", "a", "qty", 2L)), "paid", true),
            second);
  }

  @Test
  void missingTokenIsRefused() throws Exception {
    assertThat(ingest.post("/api/v2/write?bucket=b", "m v=1").statusCode()).isEqualTo(401);
  }
}
