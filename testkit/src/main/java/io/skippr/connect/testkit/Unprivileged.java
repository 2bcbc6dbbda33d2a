package io.skippr.connect.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.List;

/**
 * Runs a test's process as an existing unprivileged OS user when the tests run as root (CI does):
 * for servers that refuse root (PostgreSQL) and for checks of what a non-root container user may
 * do. Nothing is created system-wide.
 */
public final class Unprivileged {
  private Unprivileged() {}

  /** True when this JVM runs as root. */
  public static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * The prefix that runs a command as {@code user} (its own group, its supplementary groups):
   * {@code setpriv}, which unlike {@code su}/{@code runuser} needs no login shell and no PAM
   * session.
   *
   * @throws IllegalStateException when there is no such user
   */
  public static List<String> setpriv(String user) {
    String gid =
        LocalProcesses.run(List.of("id", "-g", user), Path.of("/"), Duration.ofSeconds(60));
    return List.of("setpriv", "--reuid=" + user, "--regid=" + gid.strip(), "--init-groups", "--");
  }

  /** Makes {@code user} the owner of {@code path}. */
  public static void chown(Path path, String user) throws IOException {
    UserPrincipal owner =
        path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
    Files.setOwner(path, owner);
  }
}
