package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.io.IOException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Table policies as the lake stores them, damaged at random: each reads as the policy that was
 * stored or is refused with a {@link LogFormatException} naming the file; no other policy is
 * accepted, no other exception escapes. Cases per property: {@code fuzz.tries}.
 */
class TablePolicyFuzzTest {
  private final LakeLayout layout = new LakeLayout();

  @Provide
  Arbitrary<TablePolicyLog.Policy> policies() {
    Arbitrary<List<String>> fields =
        Arbitraries.strings()
            .withCharRange(' ', '~')
            .withChars('é', '名')
            .ofMinLength(1)
            .ofMaxLength(8)
            .list()
            .ofMaxSize(3)
            .uniqueElements();
    return Arbitraries.oneOf(
        Arbitraries.of("append", "replace_partition")
            .map(name -> new TablePolicyLog.Policy(name, List.of())),
        fields.map(keys -> new TablePolicyLog.Policy("merge_by_key", keys)));
  }

  @Provide
  Arbitrary<Mutations> mutations() {
    return Mutations.any();
  }

  @Property
  void aStoredPolicyReadsAsItWasStored(@ForAll("policies") TablePolicyLog.Policy policy)
      throws IOException {
    InMemoryLakeStorage storage = new InMemoryLakeStorage();
    new TablePolicyLog(storage, layout).record("orders", policy);

    assertThat(new TablePolicyLog(storage, layout).read(layout.policyKey("orders", 1)))
        .isEqualTo(policy);
    assertThat(new TablePolicyLog(storage, layout).current("orders"))
        .contains(new TablePolicyLog.Recorded(1, policy));
  }

  @Property
  void aDamagedPolicyIsRefusedOrReadsAsStored(
      @ForAll("policies") TablePolicyLog.Policy policy, @ForAll("mutations") Mutations damage)
      throws IOException {
    InMemoryLakeStorage storage = new InMemoryLakeStorage();
    new TablePolicyLog(storage, layout).record("orders", policy);
    String key = layout.policyKey("orders", 1);
    byte[] damaged = damage.apply(storage.read(key));
    storage.delete(key);
    storage.createIfAbsent(key, damaged);

    TablePolicyLog.Policy read;
    try {
      read = new TablePolicyLog(storage, layout).read(key);
    } catch (LogFormatException e) {
      assertThat(e.getMessage()).startsWith("table policy " + storage.location() + key + " ");
      return;
    }
    assertThat(read).isEqualTo(policy);
  }
}
