package io.skippr.connect.source.poll.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** Collects a response body up to a limit; a larger body cancels the exchange. */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

  /** The body was larger than the limit. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(long limit) {
      super("response body larger than " + limit + " bytes");
    }
  }

  private final long limit;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private Flow.Subscription subscription;

  LimitedBody(long limit) {
    this.limit = limit;
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    for (ByteBuffer item : items) {
      if (out.size() + (long) item.remaining() > limit) {
        subscription.cancel();
        result.completeExceptionally(new TooLarge(limit));
        return;
      }
      byte[] chunk = new byte[item.remaining()];
      item.get(chunk);
      out.write(chunk, 0, chunk.length);
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(out.toByteArray());
  }
}
