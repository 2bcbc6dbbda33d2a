package io.skippr.connect.json;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Sets the tries of the properties it is added to from the system property {@code fuzz.tries}
 * (default 10,000; a fuzz run raises it, e.g. to 1,000,000).
 */
public class FuzzTries implements AroundPropertyHook {
  static final String PROPERTY = "fuzz.tries";
  static final int DEFAULT = 10_000;

  /**
   * The tries asked for; an unset or unresolved property (a literal "${...}") gives the default.
   */
  static int tries() {
    return Integer.getInteger(PROPERTY, DEFAULT);
  }

  /** Registered on a test class, it applies to the properties in that class. */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.DIRECT_DESCENDANTS;
  }

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    context.attributes().setTries(tries());
    return property.execute();
  }
}
