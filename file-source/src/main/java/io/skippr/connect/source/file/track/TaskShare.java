package io.skippr.connect.source.file.track;

import java.util.Map;

/**
 * Which files a task reads: those whose identity hashes to its index, so every file has exactly one
 * task and a rebalance moves whole files (the new task resumes from the committed offset).
 *
 * @param index this task's number, from 0
 * @param count how many tasks share the directory
 */
public record TaskShare(int index, int count) {

  public static final String INDEX = "file.task.index";
  public static final String COUNT = "file.task.count";

  /** Everything (one task). */
  public static final TaskShare ALL = new TaskShare(0, 1);

  public TaskShare {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException("task " + index + " of " + count);
    }
  }

  /** The share a task's properties name; all files when they name none (one task). */
  public static TaskShare of(Map<String, String> props) {
    String index = props.get(INDEX);
    String count = props.get(COUNT);
    return index == null || count == null
        ? ALL
        : new TaskShare(Integer.parseInt(index), Integer.parseInt(count));
  }

  /** Whether a file with this assignment key is this task's. */
  public boolean owns(String assignment) {
    // String.hashCode is specified, so every task (in any JVM) computes the same owner.
    return count == 1 || Math.floorMod(assignment.hashCode(), count) == index;
  }
}
