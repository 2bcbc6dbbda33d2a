package io.skippr.connect.source.poll.state;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.source.poll.auth.RefreshTokens;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.HttpPollConfig;
import io.skippr.connect.source.poll.config.PollAuthConfig;
import io.skippr.connect.source.poll.config.PollAuthConfig.AuthType;
import io.skippr.connect.source.poll.config.PollAuthConfig.Grant;
import io.skippr.connect.source.poll.config.PollStateConfig;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.connect.SourceOffsetMirror;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll source's use of the state store: source offsets mirrored (through {@link
 * SourceOffsetMirror}) only after Kafka committed them, resume from the mirror when Kafka has no
 * offset, and the secret rows of rotated refresh tokens. Without a need for the store it is not
 * opened at all.
 */
public final class PollState implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PollState.class);

  /** How long a stopped task keeps the store for Connect's final offset commit. */
  private static final long CLOSE_AFTER_STOP_SECONDS = 30;

  /** Where an endpoint resumed from. */
  public enum Source {
    KAFKA,
    STATE_STORE,
    NONE
  }

  /** A resume point and where it came from. */
  public record Resume(Optional<Map<String, Object>> offset, Source source) {}

  private final HttpPollConfig.Values config;
  private final StateStore store;
  private final SourceOffsetMirror mirror;
  private final AtomicBoolean dirty = new AtomicBoolean();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  private PollState(HttpPollConfig.Values config, StateStore store, boolean mirrored) {
    this.config = config;
    this.store = store;
    this.mirror =
        store != null && mirrored
            ? new SourceOffsetMirror(store, config.scope(), config.connector())
            : null;
  }

  /**
   * Opens the store when offsets are mirrored or a refresh token needs it.
   *
   * @param opener opens the store of a connector config (StateStores::open outside tests)
   * @throws ConnectException when the store is required but does not open
   */
  public static PollState open(
      HttpPollConfig.Values config,
      Map<String, String> props,
      Function<Map<String, String>, StateStore> opener) {
    boolean mirrored = !config.sampleMode() && config.mirror() != PollStateConfig.Mode.OFF;
    boolean secrets = needsSecrets(config);
    if (!mirrored && !secrets) {
      return new PollState(config, null, false);
    }
    try {
      return new PollState(config, opener.apply(props), mirrored);
    } catch (RuntimeException e) {
      if (secrets || config.mirror() == PollStateConfig.Mode.ON) {
        throw new ConnectException(
            "The state store did not open"
                + (secrets ? " (it keeps the rotated OAuth2 refresh tokens)" : "")
                + ": "
                + e.getMessage(),
            e);
      }
      LOG.warn(
          "Source offsets are not mirrored: the state store did not open ({}); set {}=off to"
              + " silence this or {}=on to require it",
          e.getMessage(),
          PollStateConfig.MIRROR,
          PollStateConfig.MIRROR);
      return new PollState(config, null, false);
    }
  }

  private static boolean needsSecrets(HttpPollConfig.Values config) {
    for (EndpointSettings e : config.endpoints()) {
      PollAuthConfig.Values auth = e.auth();
      if (auth.type() == AuthType.OAUTH2 && auth.oauth2().grant() == Grant.REFRESH_TOKEN) {
        return true;
      }
    }
    return false;
  }

  /** Kafka's committed offset (repairing the mirror), else the mirrored one, else none. */
  public Resume resume(EndpointSettings endpoint, OffsetStorageReader kafka) {
    if (config.sampleMode()) {
      return new Resume(Optional.empty(), Source.NONE);
    }
    Map<String, String> partition = endpoint.sourcePartition();
    Map<String, Object> fromKafka = kafka == null ? null : kafka.offset(partition);
    Optional<Map<String, Object>> offset =
        mirror != null ? mirror.resume(partition, kafka) : Optional.ofNullable(fromKafka);
    Source source =
        fromKafka != null ? Source.KAFKA : offset.isPresent() ? Source.STATE_STORE : Source.NONE;
    return new Resume(offset, source);
  }

  /**
   * The refresh-token row (and lease) of an authorization.
   *
   * @param requestTimeoutMs how long one token request may take
   */
  public RefreshTokens refreshTokens(PollAuthConfig.OAuth2 oauth2, long requestTimeoutMs) {
    if (store == null) {
      throw new IllegalStateException("the state store is not open");
    }
    return new RefreshTokens(
        store, config.scope(), oauth2, Duration.ofMillis(2 * requestTimeoutMs + 10_000));
  }

  /** The pipeline the rows belong to. */
  public StateScope scope() {
    return config.scope();
  }

  /** From {@code commitRecord}: the record's partition has an offset to mirror once committed. */
  public void track(SourceRecord record) {
    if (mirror != null) {
      mirror.track(record);
      dirty.set(true);
    }
  }

  /** From {@code commit()}: copies what Kafka has committed into the mirror. */
  public synchronized void mirrorCommitted(OffsetStorageReader kafka) {
    if (mirror != null && !closed.get() && dirty.getAndSet(false)) {
      try {
        mirror.mirrorCommitted(kafka);
      } catch (RuntimeException e) {
        dirty.set(true); // try again at the next commit
        LOG.warn("Source offsets not mirrored into the state store this time: {}", e.getMessage());
      }
    }
    if (stopping.get()) {
      close();
    }
  }

  /**
   * The task stopped: the store stays open for Connect's final offset commit (which still calls
   * {@code commit()}), then closes; at the latest after 30 s.
   */
  public void closeAfterFinalCommit() {
    stopping.set(true);
    CompletableFuture.runAsync(
        MdcThreadFactory.withCallersMdc(this::close),
        CompletableFuture.delayedExecutor(CLOSE_AFTER_STOP_SECONDS, TimeUnit.SECONDS));
  }

  /** Applies offsets changed through Connect's REST API (KIP-875); null values reset. */
  public void alter(Map<? extends Map<String, ?>, ? extends Map<String, ?>> offsets) {
    if (mirror != null) {
      mirror.alter(offsets);
    }
  }

  public boolean mirrored() {
    return mirror != null;
  }

  @Override
  public synchronized void close() {
    if (store != null && closed.compareAndSet(false, true)) {
      store.close();
    }
  }
}
