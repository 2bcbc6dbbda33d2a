package io.skippr.connect.cli.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class HeldLeaseTest {
  @Test
  void aHolderIsGoneOnlyWhenItWasAProcessOfThisHostThatNoLongerRuns() throws Exception {
    String host = InetAddress.getLocalHost().getHostName();
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    long self = ProcessHandle.current().pid();
    assertThat(HeldLease.goneFromThisHost(holder(ended.pid(), host))).isTrue();
    assertThat(HeldLease.goneFromThisHost(holder(self, host))).isFalse();
    assertThat(HeldLease.goneFromThisHost(holder(ended.pid(), "another-" + host))).isFalse();
    assertThat(HeldLease.goneFromThisHost("another run")).isFalse();
  }

  private static String holder(long pid, String host) {
    return "skippr sync (pid " + pid + " on " + host + ", started 2026-12-01T09:00:00Z) 1a2b3c4d";
  }
}
