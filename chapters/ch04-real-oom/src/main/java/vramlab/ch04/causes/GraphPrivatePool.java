package vramlab.ch04.causes;

import static vramlab.ch04.causes.Rig.size;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.triage.Cause;

/**
 * Cause 4, a CUDA graph's private pool: during capture every allocation comes from a pool the
 * graph owns, because replay will reuse the very same addresses. Deleting the captured
 * intermediates frees their blocks back into that pool, not to the ordinary one: they stay
 * reserved while the graph object lives. A second {@link CachingAllocator} on the same process
 * stands in for the private pool; the message reports its cached bytes as "allocated in
 * private pools" (CCA:1299-1317).
 */
public final class GraphPrivatePool implements Scenario {
    @Override public String name() { return "graph-private-pool"; }
    @Override public Cause cause() { return Cause.CUDA_GRAPH_POOLS; }
    @Override public String title() {
        return "CUDA graphs: a live graph keeps its private pool reserved";
    }

    // tag::graph[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Rig rig = Rig.card((24 + 16L * rnd.nextInt(2)) * GiB, (400 + rnd.nextInt(400)) * MiB,
                (300 + rnd.nextInt(300)) * MiB, policy);
        rig.graphPool = new CachingAllocator(rig.self, policy);   // owned by the graph
        List<Block> captured = new ArrayList<>();
        int n = 20 + rnd.nextInt(21);
        for (int i = 0; i < n; i++) {
            captured.add(rig.alloc(rig.graphPool, (64 + 32L * rnd.nextInt(6)) * MiB));
        }
        Block output = captured.remove(captured.size() - 1);      // replay writes here; kept
        captured.forEach(b -> rig.free(rig.graphPool, b));       // "del" the intermediates
        rig.say("Captured a graph of " + n + " tensors; the intermediates are deleted, the "
                + "static output (" + size(output.size()) + ") kept. Its pool still reserves "
                + size(rig.graphPool.reserved()) + " while the graph lives.");
        List<Block> tensors = new ArrayList<>();
        CudaOutOfMemoryError oom = rig.fill(rig.torch,
                () -> (192 + 64L * rnd.nextInt(5)) * MiB, tensors);
        rig.say("Eager work beside it: " + tensors.size() + " tensors, "
                + size(rig.torch.allocated()) + "; empty_cache() there releases "
                + size(rig.torch.emptyCache()) + ", and cannot reach the graph's pool.");
        return rig.outcome(name(), cause(), oom, List.of(
                "  File \"infer.py\", line 88, in warmup",
                "    out = model(static_input)"));
    }
    // end::graph[]
}
