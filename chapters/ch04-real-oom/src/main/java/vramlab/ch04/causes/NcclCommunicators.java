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
import vramlab.driver.GpuProcess;
import vramlab.triage.Cause;

/**
 * Cause 3, NCCL's buffers: each communicator sets up, per channel and per ring neighbour, one
 * FIFO for each protocol, with cudaMalloc outside PyTorch's caching allocator, and keeps them
 * until the communicator is destroyed. A job with a few process groups, plus groups an eval
 * loop creates and never destroys, holds more than a gigabyte that PyTorch does not count.
 *
 * <p>Sizes are NCCL 2.x's defaults (src/init.cc): Simple {@code DEFAULT_BUFFSIZE} = 4 MiB, LL
 * 8 lines x 512 threads x 8 steps x 16 B = 512 KiB, LL128 120 x 640 x 8 steps x 8 B =
 * 4,915,200 B. Simplification: the kit allocates one buffer holding all three per channel and
 * direction; real NCCL's layout depends on the transport (P2P, SHM, network).
 */
public final class NcclCommunicators implements Scenario {
    public static final long SIMPLE = 4L << 20;
    public static final long LL = 8L * 512 * 8 * 16;
    public static final long LL128 = 120L * 640 * 8 * 8;

    @Override public String name() { return "nccl-communicators"; }
    @Override public Cause cause() { return Cause.NCCL_BUFFERS; }
    @Override public String title() {
        return "NCCL: communicators hold scratch buffers for their whole life";
    }

    /**
     * One communicator's buffers on one rank: per channel, one for sending and one for
     * receiving, each rounded up to whole 2 MiB pages by cudaMalloc. They live until
     * {@link #destroy()}, as NCCL's do until ncclCommDestroy.
     */
    // tag::communicator[]
    static final class Communicator {
        private final GpuProcess rank;
        private final List<Long> buffers = new ArrayList<>();

        Communicator(GpuProcess rank, int channels) {
            this.rank = rank;
            for (int c = 0; c < channels; c++) {
                for (int direction = 0; direction < 2; direction++) {
                    buffers.add(rank.cudaMalloc(SIMPLE + LL + LL128));
                }
            }
        }

        /** The bytes its buffers hold on the device. */
        long bytes() {
            long sum = 0;
            for (long b : buffers) sum += rank.allocationSize(b);
            return sum;
        }

        /** ncclCommDestroy: the only way its buffers go back to the driver. */
        void destroy() {
            buffers.forEach(rank::cudaFree);
            buffers.clear();
        }
    }
    // end::communicator[]

    /**
     * The communicators, the three process groups' and any the eval loop left behind: a seed that
     * draws no leak said "3 communicators (0 made by the eval loop and never destroyed)".
     */
    static String communicators(int groups) {
        int leaked = groups - 3;
        return groups + " communicators (dp, tp and pp" + (leaked == 0 ? "; the eval loop left none this time)"
                : ", and " + leaked + " made by the eval loop and never destroyed)");
    }

    // tag::nccl[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Rig rig = Rig.card((40 + 40L * rnd.nextInt(2)) * GiB, (500 + rnd.nextInt(500)) * MiB,
                (400 + rnd.nextInt(200)) * MiB, policy);
        int channels = 16 + 8 * rnd.nextInt(3);                   // 16, 24 or 32
        int groups = 3 + rnd.nextInt(4);                          // dp, tp, pp + eval's leaks
        long nccl = 0;
        for (int g = 0; g < groups; g++) nccl += new Communicator(rig.self, channels).bytes();
        rig.say(communicators(groups) + " x " + channels + " channels x 2 directions: " + size(nccl)
                + " of NCCL buffers, outside PyTorch's allocator.");
        List<Block> tensors = new ArrayList<>();
        CudaOutOfMemoryError oom = rig.fill(rig.torch,
                () -> (256 + 128L * rnd.nextInt(4)) * MiB, tensors);
        rig.say("Training state: " + tensors.size() + " tensors, "
                + size(rig.torch.allocated()) + ".");
        // One of ranks 1-7 fails: PyTorch prefixes an uncaught traceback with [rankN]: (its global
        // rank; torch/distributed/distributed_c10d.py, _distributed_excepthook), and a world of one
        // prints [rank0]: too, so only a rank above 0 shows the paste came from a distributed run.
        String rank = "[rank" + (1 + rnd.nextInt(7)) + "]: ";
        return rig.outcome(name(), cause(), oom, List.of(
                rank + "Traceback (most recent call last):",
                rank + "  File \"pretrain.py\", line 212, in train_step",
                rank + "    loss = model(batch).loss"));
    }
    // end::nccl[]
}
