package io.skippr.connect.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {
  @Test
  void portsAreDistinctBindableAndBelowTheEphemeralRange() throws Exception {
    int[] ports = FreePorts.take(50);
    int ephemeralStart = 32_768;
    Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    if (Files.exists(range)) {
      ephemeralStart = Integer.parseInt(Files.readAllLines(range).get(0).strip().split("\\s+")[0]);
    }
    int below = ephemeralStart;
    assertThat(Arrays.stream(ports).boxed().toList())
        .doesNotHaveDuplicates()
        .allMatch(port -> port >= 10_000 && port < below);
    try (ServerSocket socket = new ServerSocket(ports[0], 1, InetAddress.getLoopbackAddress())) {
      assertThat(socket.getLocalPort()).isEqualTo(ports[0]);
    }
  }

  @Test
  void aPortInUseIsNotHandedOut() throws Exception {
    int first = FreePorts.one();
    try (ServerSocket held = new ServerSocket(first + 1, 1, InetAddress.getLoopbackAddress())) {
      assertThat(FreePorts.take(20)).doesNotContain(first, held.getLocalPort());
    }
  }
}
