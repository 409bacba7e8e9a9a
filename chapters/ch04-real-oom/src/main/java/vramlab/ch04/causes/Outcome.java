package vramlab.ch04.causes;

import java.util.List;

import vramlab.alloc.PyTorchOomMessage;
import vramlab.triage.Cause;

/**
 * How a scenario ended: the facts at the OOM, the message PyTorch would print for them, and
 * what a user would paste (the message with the lines around it).
 *
 * @param scenario the scenario's name
 * @param cause    the cause the scenario was built to show
 * @param facts    the simulator's state at the OOM, as the message reports it
 * @param message  {@link PyTorchOomMessage#format} of the facts
 * @param context  the lines a user would paste around the message (traceback, log prefixes)
 * @param story    what happened, one line per step, every number from the simulator
 */
public record Outcome(String scenario, Cause cause, PyTorchOomMessage.Facts facts, String message,
                      List<String> context, List<String> story) {

    public Outcome {
        context = List.copyOf(context);
        story = List.copyOf(story);
    }

    /** The paste: the context lines, then the exception line, each with the context's prefix. */
    public String pasted() {
        String prefix = context.isEmpty() || !context.get(0).startsWith("[rank") ? ""
                : context.get(0).substring(0, context.get(0).indexOf(']') + 2);
        StringBuilder sb = new StringBuilder();
        context.forEach(l -> sb.append(l).append('\n'));
        sb.append(prefix).append("torch.OutOfMemoryError: ").append(message).append('\n');
        return sb.toString();
    }

    /** What JShell prints: the story, then the message. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(scenario).append(" (built to show ").append(cause)
                .append(")\n");
        story.forEach(l -> sb.append("  ").append(l).append('\n'));
        return sb.append("  ").append(message).append('\n').toString();
    }
}
