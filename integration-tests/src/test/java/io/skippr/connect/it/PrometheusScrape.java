package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a Prometheus text exposition ({@code /metrics} of the JMX exporter agent). */
final class PrometheusScrape {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+\\d+)?$");
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** One sample: a metric name, its labels and its value. */
  record Sample(String name, Map<String, String> labels, double value) {}

  private final List<Sample> samples;

  private PrometheusScrape(List<Sample> samples) {
    this.samples = samples;
  }

  /** Scrapes {@code url} once. */
  static PrometheusScrape of(URI url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET " + url).isEqualTo(200);
    return parse(response.body());
  }

  static PrometheusScrape parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line.strip());
      assertThat(m.matches()).as("an exposition line: " + line).isTrue();
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher label = LABEL.matcher(m.group(2));
        while (label.find()) {
          labels.put(label.group(1), label.group(2));
        }
      }
      out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
    }
    return new PrometheusScrape(out);
  }

  /** The samples of a metric whose labels include {@code labels}. */
  List<Sample> samples(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name))
        .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
        .toList();
  }

  /** The sum of a metric over the samples whose labels include {@code labels}. */
  double sum(String name, Map<String, String> labels) {
    return samples(name, labels).stream().mapToDouble(Sample::value).sum();
  }

  Set<String> names() {
    Set<String> names = new TreeSet<>();
    samples.forEach(s -> names.add(s.name()));
    return names;
  }

  /**
   * Every metric of {@code expected} has a sample of {@code connector} carrying its labels, and
   * every such sample has a value that is a number (not NaN) and, for counters, not negative.
   */
  void assertExposes(Map<String, List<String>> expected, String connector) {
    for (Map.Entry<String, List<String>> metric : expected.entrySet()) {
      List<Sample> found = samples(metric.getKey(), Map.of("connector", connector));
      assertThat(found).as(metric.getKey() + " of " + connector).isNotEmpty();
      for (Sample sample : found) {
        assertThat(sample.labels())
            .as(sample.toString())
            .containsKeys(metric.getValue().toArray(String[]::new));
        assertThat(sample.value()).as(sample.toString()).isNotNaN();
        if (sample.name().endsWith("_total")) {
          assertThat(sample.value()).as(sample.toString()).isGreaterThanOrEqualTo(0);
        }
      }
    }
  }
}
