package io.skippr.connect.source.http;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Runs a property a tenth of fuzz.tries times (1,000 by default, 100,000 with -Pfuzz): for
 * properties whose every try is a round trip through a real endpoint rather than a parse.
 */
public final class FuzzTriesTenth implements AroundPropertyHook {

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    context.attributes().setTries(Math.max(1, Integer.getInteger("fuzz.tries", 10_000) / 10));
    return property.execute();
  }
}
