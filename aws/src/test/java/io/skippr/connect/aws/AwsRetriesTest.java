package io.skippr.connect.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class AwsRetriesTest {
  private final List<Long> waits = new ArrayList<>();

  static S3Exception s3(int status, String code) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .awsErrorDetails(
                AwsErrorDetails.builder().errorCode(code).errorMessage("msg " + code).build())
            .requestId("req-1")
            .build();
  }

  static SdkClientException network(Exception cause) {
    return SdkClientException.builder()
        .message("Unable to execute HTTP request")
        .cause(cause)
        .build();
  }

  @Test
  void transientFailuresAreThoseAnotherAttemptMayNotMeet() {
    List<SdkException> transients =
        List.of(
            s3(500, "InternalError"),
            s3(503, "SlowDown"),
            s3(429, "TooManyRequests"),
            s3(400, "RequestTimeout"),
            s3(409, "ConditionalRequestConflict"),
            network(new SocketTimeoutException("Read timed out")),
            network(new SocketException("Connection reset")),
            ApiCallAttemptTimeoutException.builder().message("attempt timed out").build());
    for (SdkException e : transients) {
      assertThat(AwsRetries.isTransient(e)).as(AwsRetries.describe(e)).isTrue();
    }
    List<SdkException> permanent =
        List.of(
            s3(403, "AccessDenied"),
            s3(404, "NoSuchKey"),
            s3(412, "PreconditionFailed"),
            s3(400, "InvalidArgument"),
            SdkClientException.builder().message("bad config").build());
    for (SdkException e : permanent) {
      assertThat(AwsRetries.isTransient(e)).as(AwsRetries.describe(e)).isFalse();
    }
  }

  @Test
  void retriesUpToTheLimitWithGrowingJitteredWaitsThenNamesTheRequest() {
    AwsRetries retries = new AwsRetries(new RetryPolicy(4, 100, 20_000), waits::add, () -> 0.999);
    List<Integer> attempts = new ArrayList<>();
    assertThatThrownBy(
            () ->
                retries.call(
                    "PUT s3://b/k",
                    attempt -> {
                      attempts.add(attempt);
                      throw s3(503, "SlowDown");
                    }))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "PUT s3://b/k failed after 4 attempt(s); last: HTTP 503 SlowDown: msg SlowDown"
                + " (request id req-1)");
    assertThat(attempts).containsExactly(1, 2, 3, 4);
    assertThat(waits).hasSize(3);
    assertThat(waits.get(0)).isBetween(0L, 100L);
    assertThat(waits.get(1)).isBetween(0L, 200L);
    assertThat(waits.get(2)).isBetween(0L, 400L);
  }

  @Test
  void aPermanentFailureIsThrownAtOnceAndSuccessEndsRetrying() throws IOException {
    AwsRetries retries = new AwsRetries(new RetryPolicy(5, 10, 20_000), waits::add, () -> 0.5);
    assertThatThrownBy(
            () ->
                retries.call(
                    "GET s3://b/k",
                    attempt -> {
                      throw s3(403, "AccessDenied");
                    }))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("GET s3://b/k failed: HTTP 403 AccessDenied");
    assertThat(waits).isEmpty();

    String result =
        retries.call(
            "GET s3://b/k",
            attempt -> {
              if (attempt < 3) {
                throw network(new SocketException("Connection reset"));
              }
              return "done on " + attempt;
            });
    assertThat(result).isEqualTo("done on 3");
    assertThat(waits).hasSize(2);
  }

  @Test
  void backoffIsFullJitterUnderACappedCeiling() {
    double[] random = {0.999};
    AwsRetries retries =
        new AwsRetries(new RetryPolicy(50, 1000, 20_000), waits::add, () -> random[0]);
    assertThat(retries.backoffMillis(1)).isEqualTo(999);
    random[0] = 1.0;
    assertThat(retries.backoffMillis(30)).isEqualTo(20_000);
    random[0] = 0.0;
    assertThat(retries.backoffMillis(30)).isZero();
  }

  @Test
  void throttlingCodesOfEveryServiceAreTransient() {
    for (String code :
        List.of("ProvisionedThroughputExceededException", "ThrottlingException", "SlowDown")) {
      assertThat(AwsRetries.isTransient(s3(400, code))).as(code).isTrue();
    }
  }
}
