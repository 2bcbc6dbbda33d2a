package io.skippr.connect.source.poll.config;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** How requests authenticate: basic, bearer, or OAuth2 (client credentials or refresh tokens). */
public final class PollAuthConfig {

  public static final String TYPE = "auth.type";
  public static final String BASIC_USERNAME = "auth.basic.username";
  public static final String BASIC_PASSWORD = "auth.basic.password";
  public static final String BEARER_TOKEN = "auth.bearer.token";
  public static final String OAUTH2_TOKEN_URL = "auth.oauth2.token.url";
  public static final String OAUTH2_CLIENT_ID = "auth.oauth2.client.id";
  public static final String OAUTH2_CLIENT_SECRET = "auth.oauth2.client.secret";
  public static final String OAUTH2_SCOPE = "auth.oauth2.scope";
  public static final String OAUTH2_GRANT = "auth.oauth2.grant";
  public static final String OAUTH2_REFRESH_TOKEN = "auth.oauth2.refresh.token";
  public static final String OAUTH2_CLIENT_AUTH = "auth.oauth2.client.auth";

  /** The authentication types. */
  public enum AuthType {
    NONE,
    BASIC,
    BEARER,
    OAUTH2
  }

  /** The OAuth2 grants. */
  public enum Grant {
    CLIENT_CREDENTIALS,
    REFRESH_TOKEN
  }

  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
  public enum ClientAuth {
    BASIC,
    BODY
  }

  /** The OAuth2 settings. */
  public record OAuth2(
      String tokenUrl,
      String clientId,
      String clientSecret,
      String scope,
      Grant grant,
      String refreshToken,
      ClientAuth clientAuth) {
    @Override
    public String toString() {
      return "OAuth2[tokenUrl=" + tokenUrl + ", clientId=" + clientId + ", grant=" + grant + "]";
    }
  }

  /** The authentication settings; secrets are never printed. */
  public record Values(
      AuthType type, String username, String password, String bearerToken, OAuth2 oauth2) {
    @Override
    public String toString() {
      return "Values[type=" + type + ", username=" + username + ", " + oauth2 + "]";
    }
  }

  private PollAuthConfig() {}

  public static ConfigDef define(ConfigDef def) {
    def.define(
            TYPE,
            Type.STRING,
            "none",
            Validators.oneOf("none", "basic", "bearer", "oauth2"),
            Importance.HIGH,
            "none; basic (auth.basic.username, auth.basic.password); bearer"
                + " (auth.bearer.token); oauth2 (auth.oauth2.*: an access token from the token"
                + " endpoint, refreshed before it expires and once on a 401).")
        .define(BASIC_USERNAME, Type.STRING, "", Importance.MEDIUM, "User name of basic auth.")
        .define(BASIC_PASSWORD, Type.PASSWORD, "", Importance.MEDIUM, "Password of basic auth.")
        .define(
            BEARER_TOKEN,
            Type.PASSWORD,
            "",
            Importance.MEDIUM,
            "Static token sent as 'Authorization: Bearer <token>'.");
    return defineOAuth2(def);
  }

  private static ConfigDef defineOAuth2(ConfigDef def) {
    return def.define(
            OAUTH2_TOKEN_URL,
            Type.STRING,
            "",
            Validators.URL_OR_EMPTY,
            Importance.MEDIUM,
            "Token endpoint of the OAuth2 authorization server.")
        .define(OAUTH2_CLIENT_ID, Type.STRING, "", Importance.MEDIUM, "OAuth2 client id.")
        .define(OAUTH2_CLIENT_SECRET, Type.PASSWORD, "", Importance.MEDIUM, "OAuth2 client secret.")
        .define(
            OAUTH2_SCOPE,
            Type.STRING,
            "",
            Importance.LOW,
            "Space-separated scopes asked for (sent only when set).")
        .define(
            OAUTH2_GRANT,
            Type.STRING,
            "client_credentials",
            Validators.oneOf("client_credentials", "refresh_token"),
            Importance.MEDIUM,
            "client_credentials, or refresh_token: the refresh token of a user's authorization."
                + " A refresh token the server rotates is written to the state store as an"
                + " encrypted secret (AES-GCM under SKIPPR_STATE_KEY) before it is used, so a"
                + " restart uses the newest one.")
        .define(
            OAUTH2_REFRESH_TOKEN,
            Type.PASSWORD,
            "",
            Importance.MEDIUM,
            "Refresh token for the first run (refresh_token grant). Later runs use the newest"
                + " rotated token from the state store; setting another value here starts over"
                + " from it. Prefer a config provider (${file:...}) to keep it out of the"
                + " config topic.")
        .define(
            OAUTH2_CLIENT_AUTH,
            Type.STRING,
            "basic",
            Validators.oneOf("basic", "body"),
            Importance.LOW,
            "How the client authenticates at the token endpoint: basic (HTTP basic auth, the"
                + " RFC 6749 default) or body (client_id and client_secret form fields).");
  }

  public static Values from(AbstractConfig c) {
    OAuth2 oauth2 =
        new OAuth2(
            c.getString(OAUTH2_TOKEN_URL).trim(),
            c.getString(OAUTH2_CLIENT_ID),
            secret(c, OAUTH2_CLIENT_SECRET),
            c.getString(OAUTH2_SCOPE).trim(),
            Grant.valueOf(c.getString(OAUTH2_GRANT).toUpperCase(Locale.ROOT)),
            secret(c, OAUTH2_REFRESH_TOKEN),
            ClientAuth.valueOf(c.getString(OAUTH2_CLIENT_AUTH).toUpperCase(Locale.ROOT)));
    return new Values(
        AuthType.valueOf(c.getString(TYPE).toUpperCase(Locale.ROOT)),
        c.getString(BASIC_USERNAME),
        secret(c, BASIC_PASSWORD),
        secret(c, BEARER_TOKEN),
        oauth2);
  }

  private static String secret(AbstractConfig c, String key) {
    Password p = c.getPassword(key);
    return p == null ? "" : p.value();
  }
}
