package vramlab.ch04.causes;

import static vramlab.ch04.causes.Rig.size;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.triage.Cause;

/**
 * Cause 5, a cuDNN workspace: the tensors fit with a few hundred MiB to spare, then a
 * convolution runs the algorithm cudnn.benchmark chose, and its workspace (PyTorch allocates it
 * through the caching allocator) is bigger than the headroom. The message alone looks like a
 * full card; only the traceback, ending in a convolution, points at the workspace.
 */
public final class CudnnWorkspace implements Scenario {
    @Override public String name() { return "cudnn-workspace"; }
    @Override public Cause cause() { return Cause.CUDNN_WORKSPACE; }
    @Override public String title() {
        return "cuDNN: a benchmarked algorithm's workspace spikes at the edge";
    }

    // tag::cudnn[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Rig rig = Rig.card((8 + 4L * rnd.nextInt(3)) * GiB, (300 + rnd.nextInt(400)) * MiB,
                (300 + rnd.nextInt(300)) * MiB, policy);
        long headroom = (256 + rnd.nextInt(512)) * MiB;
        List<Block> tensors = new ArrayList<>();
        while (rig.gpu.free() - 64 * MiB >= headroom) tensors.add(rig.alloc(rig.torch, 64 * MiB));
        rig.say("Weights and activations: " + size(rig.torch.allocated()) + "; "
                + size(rig.gpu.free()) + " left on the device.");
        long workspace = headroom + (256 + rnd.nextInt(1024)) * MiB;  // the fastest algorithm
        try {
            rig.alloc(rig.torch, workspace);
            throw new IllegalStateException(name() + ": the workspace fit");
        } catch (CudaOutOfMemoryError e) {
            rig.say("conv2d with cudnn.benchmark: the chosen algorithm wants "
                    + size(workspace) + " of workspace.");
            return rig.outcome(name(), cause(), e, List.of(
                    "  File \"train_unet.py\", line 70, in forward",
                    "    x = self.down3(x)",
                    "  File \"/usr/lib/python3/site-packages/torch/nn/modules/conv.py\", "
                            + "line 456, in _conv_forward",
                    "    return F.conv2d(input, weight, bias, self.stride,"));
        }
    }
    // end::cudnn[]
}
