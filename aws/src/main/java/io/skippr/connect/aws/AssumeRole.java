package io.skippr.connect.aws;

import java.util.Objects;

/**
 * A role to assume with STS on top of the base credentials (static keys, web identity or the SDK's
 * chain), refreshed before its temporary credentials expire.
 *
 * @param roleArn the role's ARN
 * @param sessionName the session name CloudTrail shows
 * @param externalId the external id the role's trust policy demands, or null
 */
public record AssumeRole(String roleArn, String sessionName, String externalId) {
  public AssumeRole {
    Objects.requireNonNull(roleArn, "roleArn");
    Objects.requireNonNull(sessionName, "sessionName");
  }

  /** The role and session; the external id shows only whether it is set. */
  @Override
  public String toString() {
    return "assume role "
        + roleArn
        + " as "
        + sessionName
        + (externalId == null ? "" : " with external id (configured)");
  }
}
