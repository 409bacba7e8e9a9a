package vramlab.ch04.causes;

import static vramlab.ch04.causes.Rig.size;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.alignUp;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.triage.Cause;

/**
 * Cause 2, another process on the same GPU: a forgotten notebook kernel still holds gigabytes
 * through plain cudaMalloc, and our training run fills what is left. With {@code mps}, the
 * processes are MPS clients on a Volta or later GPU: "each Volta MPS client owns its own GPU
 * address space", and the saving of on-GPU context storage is "to a much lesser degree" than
 * before Volta (NVIDIA's MPS documentation, Introduction and "When to Use MPS"). So each client
 * keeps an address space and a context of its own; the server holds the scheduling resources
 * they share. How much smaller a client's context is, is not documented: the kit moves
 * {@link #SERVER_CONTEXT} from each client's context to the server, an illustrative figure of
 * the size an MPS server was observed to hold (27 MiB on a V100, nebuly-ai/nos issue #39).
 */
public final class OtherProcesses implements Scenario {
    /** What the MPS server holds for all its clients; each client's context is that much smaller. */
    public static final long SERVER_CONTEXT = 32 * MiB;

    private final boolean mps;

    public OtherProcesses(boolean mps) { this.mps = mps; }

    @Override public String name() { return mps ? "mps-clients" : "other-process"; }
    @Override public Cause cause() { return Cause.OTHER_PROCESSES; }
    @Override public String title() {
        return mps ? "other processes: MPS clients, each still with its own context"
                : "other processes: a forgotten notebook holds gigabytes";
    }

    // tag::other-process[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Gpu gpu = new Gpu(0, (16 + 8L * rnd.nextInt(3)) * GiB, (400 + rnd.nextInt(400)) * MiB);
        long context = (300 + rnd.nextInt(300)) * MiB;
        long ownContext = mps ? context - SERVER_CONTEXT : context;   // Volta MPS: a smaller one
        if (mps) gpu.open(1500 + rnd.nextInt(100), "nvidia-cuda-mps-server", SERVER_CONTEXT);
        GpuProcess notebook = gpu.open(4000 + rnd.nextInt(1000), "ipykernel", ownContext);
        notebook.cudaMalloc(alignUp((4 + rnd.nextInt(5)) * GiB + rnd.nextInt(1 << 30), 2 * MiB));
        Rig rig = new Rig(gpu, gpu.open(Rig.PID, "python train.py", ownContext), policy);
        rig.say("Process " + notebook.pid() + " (" + notebook.name() + ") holds "
                + size(notebook.physicalBytes()) + (mps ? "; each MPS client keeps its own address "
                + "space and a context of " + size(ownContext) + ", the server " + size(SERVER_CONTEXT)
                + "." : "."));
        List<Block> weights = new ArrayList<>();
        CudaOutOfMemoryError oom = rig.fill(rig.torch,
                () -> (128 + 64L * rnd.nextInt(7)) * MiB, weights);
        rig.say("Loading the model: " + weights.size() + " tensors, "
                + size(rig.torch.allocated()) + ", then one more does not fit.");
        return rig.outcome(name(), cause(), oom, List.of(
                "  File \"serve.py\", line 41, in load",
                "    model.to(\"cuda\")"));
    }
    // end::other-process[]
}
