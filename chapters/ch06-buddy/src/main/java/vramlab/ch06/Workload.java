package vramlab.ch06;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded inference workload: {@code requests} arrive as a Poisson process of
 * {@code arrivalsPerStep} per decode step, with prompt and output lengths drawn from their
 * distributions; at most {@code maxBatch} run at once. The same seed gives the same requests.
 */
public record Workload(long seed, int requests, double arrivalsPerStep,
                       LengthDist prompt, LengthDist output, int maxBatch) {

    public Workload {
        if (requests <= 0 || arrivalsPerStep <= 0 || maxBatch <= 0) {
            throw new IllegalArgumentException("workload needs requests > 0, arrivals > 0 and maxBatch > 0");
        }
    }

    // tag::chat[]
    /** The chapter's default: chat-like prompts of 32..1024 tokens, answers of 32..512. */
    public static Workload chat(long seed) {
        return new Workload(seed, 300, 0.15, LengthDist.uniform(32, 1024), LengthDist.uniform(32, 512), 64);
    }
    // end::chat[]

    // tag::generate[]
    /** The requests, in arrival order: exponential gaps between arrivals, lengths per request. */
    public List<Request> generate() {
        Random rnd = new Random(seed);
        List<Request> out = new ArrayList<>();
        double t = 0;
        for (int id = 0; id < requests; id++) {
            t += -Math.log(1 - rnd.nextDouble()) / arrivalsPerStep;
            out.add(new Request(id, (long) t, prompt.sample(rnd), output.sample(rnd)));
        }
        return out;
    }
    // end::generate[]

    /** What JShell shows: {@link #describe()}. */
    @Override public String toString() { return describe(); }

    public String describe() {
        return requests + " requests, " + arrivalsPerStep + " arrivals/step, prompts " + prompt.describe()
                + ", outputs " + output.describe() + ", batch <= " + maxBatch + ", seed " + seed;
    }
}
