package io.skippr.connect.state.dynamodb;

import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStoreProvider;
import io.skippr.connect.state.api.StateStoreSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code store.type=dynamodb}: one table shared by every worker, named by {@code store.name}. */
public final class DynamoDbStateStoreProvider implements StateStoreProvider {
  public static final String TYPE = "dynamodb";
  private static final Duration TABLE_TIMEOUT = Duration.ofMinutes(5);

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public StateStore open(StateStoreSettings settings) {
    String table = settings.requireName();
    DynamoDbClient client = DynamoDbClients.build(settings);
    Retrier retrier = Retrier.standard();
    String location =
        settings.dynamoDbEndpoint().map(URI::toString).orElse("AWS")
            + settings.dynamoDbRegion().map(r -> ", " + r).orElse("");
    try {
      DynamoDbTable.ensure(client, retrier, table, settings.createTable(), TABLE_TIMEOUT);
    } catch (RuntimeException e) {
      client.close();
      throw e instanceof StateStoreException
          ? e
          : new StateStoreException(
              "cannot use DynamoDB table " + table + " (" + location + "): " + e.getMessage(), e);
    }
    return new DynamoDbStateStore(client, table, location, retrier, Clock.systemUTC());
  }
}
