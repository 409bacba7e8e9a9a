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
 * Cause 6, the driver's reserve and the context: before the first tensor, the driver and
 * firmware keep memory for ECC, the display and their own structures (hundreds of MiB,
 * card- and driver-dependent; a 96 GiB card was measured 638 MiB short in cuDeviceTotalMem,
 * ollama/ollama PR #18201), and creating the context takes a few hundred MiB more. The reserve
 * never shows as used: CUDA's total (cudaMemGetInfo, the message's "total capacity") already
 * leaves it out. A model sized to the card's nominal size does not fit; nothing else is wrong.
 */
public final class DriverReserve implements Scenario {
    @Override public String name() { return "driver-reserve"; }
    @Override public Cause cause() { return Cause.FULL_OR_DRIVER_RESERVE; }
    @Override public String title() {
        return "the driver's reserve and the context are gone before the first tensor";
    }

    // tag::driver[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        long reserve = (256 + rnd.nextInt(768)) * MiB;            // ECC, display, firmware
        Rig rig = Rig.card(24 * GiB, reserve, (300 + rnd.nextInt(300)) * MiB, policy);
        rig.say("A 24 GiB card: the driver keeps " + size(reserve) + ", so CUDA's total is "
                + size(rig.gpu.totalMemory()) + "; the context takes " + size(rig.self.contextBytes())
                + " of it; " + size(rig.gpu.free()) + " is left.");
        List<Block> tensors = new ArrayList<>();
        CudaOutOfMemoryError oom = rig.fill(rig.torch,
                () -> (256 + 256L * rnd.nextInt(3)) * MiB, tensors);
        rig.say("The model's tensors: " + tensors.size() + " fit, "
                + size(rig.torch.allocated()) + ".");
        return rig.outcome(name(), cause(), oom, List.of(
                "  File \"train.py\", line 30, in <module>",
                "    model = build_model().cuda()"));
    }
    // end::driver[]
}
