package vramlab.ch06;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The serving loop every contender runs: one decode step at a time, admit waiting requests in
 * arrival order (first come, first served), then every running sequence adds one token.
 *
 * <p>Rules, in vLLM v1's manner ({@code vllm/v1/core/sched/scheduler.py}, simplified):
 * <ul>
 *   <li>admission reserves the prompt's tokens; a request that does not fit now waits, and
 *       so does everyone behind it (no skipping ahead);
 *   <li>a request whose final length exceeds what the contender could ever hold is rejected;
 *   <li>when a running sequence cannot grow, the most recently admitted running sequence is
 *       preempted (its cache freed, the request back at the head of the queue, recomputed
 *       from scratch later) until the grow succeeds or the sequence itself was preempted.
 * </ul>
 */
public final class Serving {
    private Serving() {}

    /** The state after one step, for the time series. */
    public record Sample(long step, int running, int waiting, long requested, long allocated,
                         long reserved, long free, long largestServableTokens) {}

    /** A running sequence: its request and the tokens generated so far. */
    private static final class Seq {
        final Request r;
        long generated;
        Seq(Request r) { this.r = r; }
        long tokens() { return r.prompt() + generated; }
    }

    /** Called after every step with the step number and the contender, for monitoring. */
    @FunctionalInterface
    public interface Observer {
        void afterStep(long step, KvContender c);
    }

    /** Runs {@code workload} through {@code c}; with {@code check}, invariants after every step. */
    public static Result run(Workload workload, KvContender c, long bytesPerToken, boolean check) {
        return run(workload, c, bytesPerToken, check, (step, contender) -> { });
    }

    // tag::run[]
    /** The serving loop: arrivals join the queue, admission, one decode step, a sample. */
    public static Result run(Workload workload, KvContender c, long bytesPerToken, boolean check,
                             Observer observer) {
        List<Request> arrivals = workload.generate();
        Deque<Request> waiting = new ArrayDeque<>();
        List<Seq> running = new ArrayList<>();
        Result.Builder res = new Result.Builder(c.name(), bytesPerToken);
        int next = 0;
        for (long step = 0; res.done() < arrivals.size(); step++) {
            while (next < arrivals.size() && arrivals.get(next).arrival() <= step) {
                waiting.add(arrivals.get(next++));
            }
            admit(c, waiting, running, workload.maxBatch(), res);
            decode(c, waiting, running, res);
            if (check) c.checkInvariants();
            observer.afterStep(step, c);
            res.sample(new Sample(step, running.size(), waiting.size(), c.requestedBytes(),
                    c.allocatedBytes(), c.reservedBytes(), c.freeBytes(), c.largestServableTokens()));
            if (step > 1_000_000) throw new IllegalStateException(c.name() + ": stuck after 10^6 steps");
        }
        return res.build(c.notes());
    }
    // end::run[]

    private static void admit(KvContender c, Deque<Request> waiting, List<Seq> running, int maxBatch,
                              Result.Builder res) {
        while (!waiting.isEmpty() && running.size() < maxBatch) {
            Request r = waiting.peek();
            if (r.finalTokens() > c.maxSequenceTokens()) {
                waiting.poll();
                res.rejected();
                continue;
            }
            long need = r.prompt() * res.bytesPerToken();
            long freeBefore = c.freeBytes();
            if (!c.admit(r.id(), r.prompt())) {
                res.admissionFailed(freeBefore >= need);
                return;                                  // first come, first served
            }
            running.add(new Seq(waiting.poll()));
        }
    }

    private static void decode(KvContender c, Deque<Request> waiting, List<Seq> running, Result.Builder res) {
        for (int i = 0; i < running.size(); i++) {
            Seq s = running.get(i);
            s.generated++;
            boolean preemptedItself = false;
            while (!c.grow(s.r.id(), s.tokens())) {
                Seq victim = running.remove(running.size() - 1);   // the latest admitted
                c.release(victim.r.id());
                waiting.addFirst(victim.r);
                res.preempted();
                if (victim == s) { preemptedItself = true; break; }
            }
            if (preemptedItself) { i--; continue; }
            if (s.generated == s.r.output()) {
                c.release(s.r.id());
                running.remove(i--);
                res.completed();
            }
        }
    }
}
