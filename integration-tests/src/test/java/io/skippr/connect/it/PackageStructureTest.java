package io.skippr.connect.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of every module form no cycles, the state store's API knows no backend, and the lake
 * knows none of what is built on it (the sink connector, the CLI, the Iceberg registrar): each
 * depends only on what is below it. The source modules stand side by side: no connector module
 * (http-ingest, http-poll, file-source) uses another, and lineprotocol and source-common use none.
 * ModuleDependencyTest checks the same of the modules' poms.
 */
class PackageStructureTest {
  /** The packages of each source connector module, by module. */
  private static final Map<String, String> CONNECTORS =
      Map.of(
          "http-ingest", "io.skippr.connect.source.http..",
          "http-poll", "io.skippr.connect.source.poll..",
          "file-source", "io.skippr.connect.source.file..");

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.skippr.connect");

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.skippr.connect.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void theStateStoreApiKnowsNoBackend() {
    noClasses()
        .that()
        .resideInAPackage("io.skippr.connect.state.api..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.rocksdb..", "software.amazon..", "io.skippr.connect.aws..")
        .check(CLASSES);
  }

  @Test
  void noSourceConnectorUsesAnother() {
    CONNECTORS.forEach(
        (module, packages) ->
            noClasses()
                .that()
                .resideInAPackage(packages)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                    CONNECTORS.values().stream()
                        .filter(other -> !other.equals(packages))
                        .toArray(String[]::new))
                .as(module + " uses no other source connector")
                .check(CLASSES));
  }

  @Test
  void theLineProtocolParserAndSourceCommonUseNoConnector() {
    String[] connectors = CONNECTORS.values().toArray(String[]::new);
    noClasses()
        .that()
        .resideInAPackage("io.skippr.connect.source.lineprotocol..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(connectors)
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("io.skippr.connect.source.common..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            Stream.concat(
                    Arrays.stream(connectors), Stream.of("io.skippr.connect.source.lineprotocol.."))
                .toArray(String[]::new))
        .check(CLASSES);
  }

  @Test
  void theLakeKnowsNothingBuiltOnIt() {
    assertThat(CLASSES.getPackage("io.skippr.connect.lake").getClassesInPackageTree())
        .as("the lake's classes are on the class path this rule reads")
        .isNotEmpty();
    noClasses()
        .that()
        .resideInAPackage("io.skippr.connect.lake..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.skippr.connect.sink..", "io.skippr.connect.cli..", "io.skippr.connect.iceberg..")
        .check(CLASSES);
  }

  @Test
  void theSourcePackagesAreThoseOfTheirModules() {
    assertThat(CLASSES.getPackage("io.skippr.connect.source").getSubpackages())
        .extracting(p -> p.getName())
        .containsExactlyInAnyOrder(
            "io.skippr.connect.source.common",
            "io.skippr.connect.source.lineprotocol",
            "io.skippr.connect.source.http",
            "io.skippr.connect.source.poll",
            "io.skippr.connect.source.file");
  }

  @Test
  void theCliIsBuiltOnTheLakeNotOnTheSinkConnector() {
    noClasses()
        .that()
        .resideInAnyPackage("io.skippr.connect.cli..", "io.skippr.connect.iceberg..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.skippr.connect.sink..")
        .check(CLASSES);
  }
}
