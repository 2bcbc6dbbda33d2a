package io.skippr.connect.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The packages of every module form no cycles, the state store's API knows no backend, and the lake
 * knows none of what is built on it (the sink connector, the CLI, the Iceberg registrar): each
 * depends only on what is below it. ModuleDependencyTest checks the same of the modules' poms.
 */
class PackageStructureTest {
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
