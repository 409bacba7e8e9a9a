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
 * processes are MPS clients: one server process owns the single context they share, so the
 * clients have no context of their own (a simplification: the real server also carries
 * per-client state).
 */
public final class OtherProcesses implements Scenario {
    private final boolean mps;

    public OtherProcesses(boolean mps) { this.mps = mps; }

    @Override public String name() { return mps ? "mps-clients" : "other-process"; }
    @Override public Cause cause() { return Cause.OTHER_PROCESSES; }
    @Override public String title() {
        return mps ? "other processes: MPS clients share one server context"
                : "other processes: a forgotten notebook holds gigabytes";
    }

    // tag::other-process[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Gpu gpu = new Gpu(0, (16 + 8L * rnd.nextInt(3)) * GiB, (400 + rnd.nextInt(400)) * MiB);
        long context = (300 + rnd.nextInt(300)) * MiB;
        long ownContext = mps ? 0 : context;             // MPS clients share the server's
        if (mps) gpu.open(1500 + rnd.nextInt(100), "nvidia-cuda-mps-server", context);
        GpuProcess notebook = gpu.open(4000 + rnd.nextInt(1000), "ipykernel", ownContext);
        notebook.cudaMalloc(alignUp((4 + rnd.nextInt(5)) * GiB + rnd.nextInt(1 << 30), 2 * MiB));
        Rig rig = new Rig(gpu, gpu.open(Rig.PID, "python train.py", ownContext), policy);
        rig.say("Process " + notebook.pid() + " (" + notebook.name() + ") holds "
                + size(notebook.physicalBytes()) + (mps ? "; the MPS server holds the one "
                + "shared context, " + size(context) + "." : "."));
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
