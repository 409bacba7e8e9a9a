package vramlab.ch08;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.contest.SegregatedFits;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.ExampleTable;

/**
 * The worked example of each of chapter 08's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-8.N.adoc}).
 */
public final class Ch08Examples {
    private Ch08Examples() {}

    /** Step 8.1: the class a request gets. */
    public static String example8_1() {
        ExampleTable t = ExampleTable.of("8.1", "sizeClass(size), classes of 512 B times 2^c", "size", "class", "block");
        for (long s : new long[] {1, 512, 513, 3000, 4096, mib(1), mib(1) + 1}) {
            int c = SegregatedFits.sizeClass(s);
            t.row(readable(s), c, c < 0 ? "large: whole 2 MiB pages" : readable(SegregatedFits.classSize(c)));
        }
        return t.then("The smallest class whose blocks hold the request; over 1 MiB, none (-1).").toString();
    }

    /** Step 8.2: a fresh entry serving three requests on a 1 GiB card. */
    public static String example8_2() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        SegregatedFits f = new SegregatedFits(p);
        ExampleTable t = ExampleTable.of("8.2", "a fresh SegregatedFits on a 1 GiB card", "call", "address",
                "blockSize", "cudaMalloc so far");
        long first = -1;
        for (long s : new long[] {3000, 3000, mib(5), 700}) {
            long a = f.alloc(s, 0);
            if (first < 0) first = a;
            t.row("alloc(" + readable(s) + ")", a == first ? "A" : "A " + (a > first ? "+ " : "- ")
                    + readable(Math.abs(a - first)), readable(f.blockSize(a)), p.driverCalls(DriverCall.CUDA_MALLOC));
        }
        return t.then("The two 3000 B requests share one 2 MiB slab of 4 KiB blocks; 5 MiB takes a segment of "
                + "6 MiB of its own; 700 B opens a slab of 1 KiB blocks.").toString();
    }
}
