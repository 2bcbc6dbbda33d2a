package io.skippr.connect.source.http.config;

import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** HTTPS: the server's key and certificate from a keystore. */
public final class TlsConfig {

  public static final String KEYSTORE_PATH = "server.tls.keystore.path";
  public static final String KEYSTORE_PASSWORD = "server.tls.keystore.password";
  public static final String KEYSTORE_TYPE = "server.tls.keystore.type";

  /**
   * @param keystorePath empty when TLS is off
   */
  public record Values(Optional<String> keystorePath, Password keystorePassword, String type) {
    public boolean enabled() {
      return keystorePath.isPresent();
    }

    @Override
    public String toString() {
      return "Values[keystorePath="
          + keystorePath
          + ", keystorePassword=[hidden], type="
          + type
          + "]";
    }
  }

  private TlsConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            KEYSTORE_PATH,
            Type.STRING,
            "",
            Importance.HIGH,
            "Keystore with the server's private key and certificate chain. When set, the port speaks"
                + " HTTPS only (a plain HTTP request is answered 400 and accepts nothing). Empty:"
                + " plain HTTP.")
        .define(
            KEYSTORE_PASSWORD,
            Type.PASSWORD,
            null,
            Importance.HIGH,
            "Password of the keystore (and of its key).")
        .define(
            KEYSTORE_TYPE,
            Type.STRING,
            "PKCS12",
            new ConfigDef.NonEmptyString(),
            Importance.LOW,
            "Keystore type, e.g. PKCS12 or JKS.");
  }

  public static Values from(AbstractConfig c) {
    String path = c.getString(KEYSTORE_PATH).strip();
    return new Values(
        path.isEmpty() ? Optional.empty() : Optional.of(path),
        c.getPassword(KEYSTORE_PASSWORD),
        c.getString(KEYSTORE_TYPE).strip());
  }
}
