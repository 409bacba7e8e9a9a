package vramlab.ch02.exercises;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.kit.Exercise;

/**
 * Exercise: a seeded run of VMM calls inside one 8 MiB reservation; predict the code each call
 * returns and what is mapped at the end. The answer makes the calls on the simulator.
 */
public final class PredictTheCodes implements Exercise {
    static final long RESERVATION = mib(8);

    enum Kind { MAP, SET_ACCESS, UNMAP }

    /** One call: what, at which offset into the reservation, over how many bytes. */
    record Call(Kind kind, long offset, long size) {
        String describe() {
            return switch (kind) {
                case MAP -> String.format("cuMemMap(va + %d MiB, %d MiB, a new %d MiB handle)", offset >> 20, size >> 20,
                        size >> 20);
                case SET_ACCESS -> String.format("cuMemSetAccess(va + %d MiB, %d MiB, READWRITE)", offset >> 20, size >> 20);
                case UNMAP -> String.format("cuMemUnmap(va + %d MiB, %d MiB)", offset >> 20, size >> 20);
            };
        }
    }

    static List<Call> calls(long seed) {
        Random r = new Random(seed);
        long[] offsets = {0, mib(1), mib(2), mib(4), mib(6)};
        long[] sizes = {mib(2), mib(4)};
        List<Call> calls = new ArrayList<>();
        calls.add(new Call(Kind.MAP, offsets[2 * r.nextInt(2)], sizes[r.nextInt(2)]));
        for (int i = 0; i < 6; i++) {
            Kind k = Kind.values()[r.nextInt(3)];
            calls.add(new Call(k, offsets[r.nextInt(offsets.length)], sizes[r.nextInt(2)]));
        }
        return calls;
    }

    @Override public String title() { return "Predict what each VMM call returns"; }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("A process reserves va = cuMemAddressReserve(8 MiB) (2 MiB aligned) and then calls,"
                + " in order\n(each cuMemMap first creates its handle with cuMemCreate, which succeeds):\n");
        int n = 1;
        for (Call c : calls(seed)) sb.append(String.format("  %d. %s%n", n++, c.describe()));
        return sb.append("What does each call return (CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE or\n")
                 .append("CUDA_ERROR_ALREADY_MAPPED), and which 2 MiB pages of the reservation are mapped at the end?")
                 .toString();
    }

    @Override
    public String answer(long seed) {
        GpuProcess p = new Gpu(mib(64)).openToyProcess();
        long va = p.cuMemAddressReserve(RESERVATION);
        StringBuilder sb = new StringBuilder();
        int n = 1;
        for (Call c : calls(seed)) {
            String result = "CUDA_SUCCESS";
            try {
                switch (c.kind()) {
                    case MAP -> p.cuMemMap(va + c.offset(), c.size(), p.cuMemCreate(c.size()));
                    case SET_ACCESS -> p.cuMemSetAccess(va + c.offset(), c.size(), Access.READWRITE);
                    case UNMAP -> p.cuMemUnmap(va + c.offset(), c.size());
                }
            } catch (CudaException e) {
                result = e.error().toString();
            }
            sb.append(String.format("  %d. %-52s -> %s%n", n++, c.describe(), result));
        }
        sb.append("mapped at the end:");
        boolean any = false;
        for (long off = 0; off < RESERVATION; off += Gpu.PAGE) {
            if (p.isMapped(va + off)) {
                sb.append(" +").append(off >> 20).append(" MiB");
                any = true;
            }
        }
        return sb.append(any ? "" : " nothing").toString();
    }
}
