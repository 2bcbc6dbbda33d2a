package io.skippr.connect.testkit.fuzz;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * A property that runs a whole task per case takes a share of {@code fuzz.tries} (10,000 by
 * default, 1,000,000 with {@code -Pfuzz}) instead of all of it: {@code @FuzzShare(100)} runs {@code
 * fuzz.tries / 100} cases. Properties of parsers take {@code fuzz.tries} itself (jqwik's {@code
 * jqwik.tries.default}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@AddLifecycleHook(FuzzShare.Tries.class)
public @interface FuzzShare {

  /** The divisor of {@code fuzz.tries}. */
  int value();

  /** Sets the property's tries before it runs. */
  final class Tries implements AroundPropertyHook {
    @Override
    public PropertyExecutionResult aroundProperty(
        PropertyLifecycleContext context, PropertyExecutor property) {
      int divisor = context.findAnnotation(FuzzShare.class).map(FuzzShare::value).orElse(1);
      int tries = Integer.getInteger("fuzz.tries", 10_000);
      context.attributes().setTries(Math.max(1, tries / divisor));
      return property.execute();
    }
  }
}
