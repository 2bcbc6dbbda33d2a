package io.skippr.connect.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The packages of every module form no cycles, and the state store's API knows no backend: each
 * depends only on what is below it.
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
}
