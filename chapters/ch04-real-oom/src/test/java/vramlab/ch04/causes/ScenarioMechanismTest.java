package vramlab.ch04.causes;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PyTorchOomMessage;
import vramlab.alloc.ToyPolicy;

@DisplayName("What each scenario rests on")
class ScenarioMechanismTest {
    @Nested
    @DisplayName("given an NCCL communicator")
    class Nccl {
        @Test
        @DisplayName("its buffers are cudaMalloc'd outside PyTorch and return only when it is destroyed")
        void destroy() {
            Rig rig = Rig.card(8 * GiB, 0, 500 * MiB, new ToyPolicy());
            long free = rig.gpu.free();
            var comm = new NcclCommunicators.Communicator(rig.self, 16);
            // 4 MiB + 512 KiB + 4,915,200 B = 9,633,792 B per buffer, 10 MiB in 2 MiB pages
            assertThat(comm.bytes()).isEqualTo(16 * 2 * 10 * MiB);
            assertThat(rig.gpu.free()).isEqualTo(free - comm.bytes());
            assertThat(rig.torch.reserved()).isZero();
            assertThat(rig.torch.emptyCache()).isZero();
            comm.destroy();
            assertThat(rig.gpu.free()).isEqualTo(free);
            rig.gpu.checkInvariants();
        }

        @Test
        @DisplayName("the story counts the process groups' communicators and, when there are any, the eval loop's leaks")
        void communicatorsLine() {
            assertThat(NcclCommunicators.communicators(3)).isEqualTo("3 communicators (dp, tp and pp; the eval loop left none this time)")
                    .doesNotContain("0 made");
            assertThat(NcclCommunicators.communicators(5))
                    .isEqualTo("5 communicators (dp, tp and pp, and 2 made by the eval loop and never destroyed)");
            // seed 1, the lab's, draws the three groups alone
            assertThat(new NcclCommunicators().run(new ToyPolicy(), 1).story()).as("the lab's story")
                    .noneMatch(l -> l.contains("(0 made"))
                    .anyMatch(l -> l.startsWith("3 communicators (dp, tp and pp; the eval loop left none"));
        }
    }

    @Nested
    @DisplayName("given a captured graph's private pool")
    class GraphPool {
        @Test
        @DisplayName("deleted intermediates stay reserved until the graph is gone")
        void poolOutlivesTensors() {
            Rig rig = Rig.card(8 * GiB, 0, 500 * MiB, new ToyPolicy());
            rig.graphPool = new CachingAllocator(rig.self, new ToyPolicy());
            Block a = rig.alloc(rig.graphPool, 256 * MiB);
            Block out = rig.alloc(rig.graphPool, 64 * MiB);
            rig.free(rig.graphPool, a);                                  // del intermediate
            assertThat(rig.torch.emptyCache()).isZero();                 // the ordinary pool
            assertThat(rig.graphPool.reserved()).isEqualTo(320 * MiB);
            assertThat(rig.facts(0).privatePools()).isEqualTo(256 * MiB);
            rig.free(rig.graphPool, out);                                // the graph dies ...
            assertThat(rig.graphPool.emptyCache()).isEqualTo(320 * MiB); // ... and its pool goes
            rig.check();
        }
    }

    @Nested
    @DisplayName("given the MPS and driver-reserve scenarios")
    class Processes {
        /** This process's usage beyond what PyTorch reserved: its context, in these scenarios. */
        private long ownContext(PyTorchOomMessage.Facts f) {
            long self = f.processes().stream().filter(PyTorchOomMessage.ProcessUsage::isThisProcess)
                    .mapToLong(PyTorchOomMessage.ProcessUsage::bytes).sum();
            return self - f.reserved();
        }

        @Test
        @DisplayName("under MPS (Volta+) each client still has a context, only smaller; the server adds a line")
        void mpsContexts() {
            for (long seed = 1; seed <= 3; seed++) {
                var plain = new OtherProcesses(false).run(new ToyPolicy(), seed).facts();
                var mps = new OtherProcesses(true).run(new ToyPolicy(), seed).facts();
                assertThat(plain.processes()).hasSize(2);
                assertThat(mps.processes()).hasSize(3);
                assertThat(ownContext(mps)).as("a client's own context").isPositive()
                        .isEqualTo(ownContext(plain) - OtherProcesses.SERVER_CONTEXT);
            }
        }

        @Test
        @DisplayName("the message's total is the card less the driver's reserve; total - free is every process")
        void reserve() {
            for (long seed = 1; seed <= 5; seed++) {
                PyTorchOomMessage.Facts f = new DriverReserve().run(new ToyPolicy(), seed).facts();
                long held = f.processes().stream().mapToLong(PyTorchOomMessage.ProcessUsage::bytes).sum();
                assertThat(24 * GiB - f.total()).as("the reserve, outside CUDA's total")
                        .isBetween(256 * MiB, 1024 * MiB);
                assertThat(f.total() - f.free()).as("nothing CUDA counts is no process's").isEqualTo(held);
            }
        }
    }

    @Nested
    @DisplayName("given variable batch lengths")
    class Ratchet {
        @Test
        @DisplayName("padding the lengths to 128 tokens keeps the run free of OOMs (both policies; seed 1, "
                + "seeds 1-3 under -Pall-seeds)")
        void paddingFixesIt() {
            // a run without an OOM goes all MAX_STEPS steps, checking every invariant after each call
            int seeds = Boolean.getBoolean("vramlab.allSeeds") ? 3 : 1;
            for (var policy : java.util.List.of(new ToyPolicy(), new RealRulesPolicy())) {
                for (long seed = 1; seed <= seeds; seed++) {
                    long s = seed;
                    org.assertj.core.api.Assertions.assertThatThrownBy(
                                    () -> new VariableBatchRatchet(128).run(policy, s))
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("no OOM in " + VariableBatchRatchet.MAX_STEPS);
                }
            }
        }
    }
}
