package vramlab.ch06;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import vramlab.alloc.AllocConf;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.ToyPolicy;
import vramlab.units.Bytes;

/**
 * The same workload, model and KV budget through several contenders, side by side. The
 * caching allocator takes its {@code Policy} as a parameter, so PyTorch's policy, with and
 * without expandable segments, is one more {@link KvContender#caching} line.
 */
public final class Comparison {
    private final Workload workload;
    private final ModelShape model;
    private final long budget;
    private final List<KvContender.Factory> contenders;

    public Comparison(Workload workload, ModelShape model, long budget,
                      List<KvContender.Factory> contenders) {
        this.workload = workload;
        this.model = model;
        this.budget = budget;
        this.contenders = List.copyOf(contenders);
    }

    // tag::default[]
    /** The chapter's comparison: Llama-3-8B, a 2 GiB KV budget, the chat workload. */
    public static Comparison standard(long seed) {
        return new Comparison(Workload.chat(seed), ModelShape.LLAMA_3_8B, Bytes.gib(2), List.of(
                KvContender.caching("caching-toy", new ToyPolicy()),
                KvContender.caching("pytorch", new PyTorchPolicy()),
                KvContender.caching("pytorch+expseg",
                        new PyTorchPolicy(AllocConf.parse("expandable_segments:True"))),
                KvContender.buddy(),
                KvContender.buddyCompacting(),
                KvContender.paged(16)));
    }
    // end::default[]

    /** What JShell shows: the model, the budget, the workload and how many contenders. */
    @Override
    public String toString() {
        return "comparison of " + contenders.size() + " contenders: " + model.name() + ", KV budget "
                + Bytes.formatSize(budget) + "; " + workload.describe();
    }

    public Workload workload() { return workload; }
    public ModelShape model() { return model; }
    public long budget() { return budget; }

    /** Runs every contender; {@code check} runs the invariants after every step (slower). */
    public List<Result> run(boolean check) {
        List<Result> results = new ArrayList<>();
        var setup = new KvContender.Setup(budget, model.kvBytesPerToken());
        for (KvContender.Factory f : contenders) {
            results.add(Serving.run(workload, f.create(setup), model.kvBytesPerToken(), check));
        }
        return results;
    }

    // tag::table[]
    /** The results as a text table, one row per contender. */
    public String table(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(model).append(", KV budget ").append(Bytes.formatSize(budget)).append('\n');
        sb.append(workload.describe()).append('\n');
        sb.append(String.format(Locale.ROOT, "%-14s %5s %5s %6s %6s %6s %6s %11s %8s %5s %8s %8s\n",
                "contender", "done", "rej", "blockd", "w/free", "preemp", "steps", "peak rsrvd",
                "int.wst", "a/r", "ext.frg", "min srv"));
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT,
                    "%-14s %5d %5d %6d %6d %6d %6d %11s %7.1f%% %5.2f %7.1f%% %8d%s\n",
                    r.name(), r.completed(), r.rejected(), r.admissionFailures(),
                    r.failuresWithEnoughFree(), r.preemptions(), r.steps(),
                    Bytes.formatSize(r.peakReserved()), 100 * r.internalWaste(), r.overallocation(),
                    100 * r.externalFragmentation(), r.minLargestServable(),
                    r.notes().isEmpty() ? "" : "  (" + r.notes() + ")"));
        }
        return sb.toString();
    }
    // end::table[]

    // tag::timeline[]
    /**
     * The largest servable sequence over time, as text: one row per contender, one character
     * per slice of steps, from ' ' (nothing admissible) to '@' (the whole budget), using the
     * slice's mean.
     */
    public String timeline(List<Result> results, int width) {
        String levels = " .:-=+*#%@";
        long maxTokens = budget / model.kvBytesPerToken();
        long steps = results.stream().mapToLong(Result::steps).max().orElse(1);
        StringBuilder sb = new StringBuilder("largest servable sequence over " + steps
                + " steps (' ' none .. '@' " + maxTokens + " tokens)\n");
        for (Result r : results) {
            long[] sum = new long[width], count = new long[width];
            for (Serving.Sample s : r.samples()) {
                int col = (int) (s.step() * width / steps);
                sum[col] += s.largestServableTokens();
                count[col]++;
            }
            sb.append(String.format(Locale.ROOT, "%-14s|", r.name()));
            for (int col = 0; col < width; col++) {
                long mean = count[col] == 0 ? 0 : sum[col] / count[col];
                int top = levels.length() - 1;
                sb.append(count[col] == 0 ? ' ' : levels.charAt((int) Math.min(top, mean * top / maxTokens)));
            }
            sb.append("|\n");
        }
        return sb.toString();
    }
    // end::timeline[]

    /** What the columns mean, for the lab's output. */
    public static String legend() {
        return """
                done: requests finished; rej: could never fit; blockd: admissions that had to wait;
                w/free: of those, how many waited although enough bytes were free (fragmentation);
                preemp: running sequences evicted to let another grow; steps: decode steps to finish all;
                peak rsrvd: most device memory held; int.wst: 1 - requested/allocated over all steps;
                a/r: allocated over requested (the same waste as a ratio: 1.33 is a quarter wasted);
                ext.frg: mean share of free bytes the largest servable sequence cannot use;
                min srv: the shortest 'largest servable sequence' seen, in tokens.
                """;
    }
}
