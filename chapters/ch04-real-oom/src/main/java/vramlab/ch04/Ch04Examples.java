package vramlab.ch04;

import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import java.io.PrintStream;

import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Sim;
import vramlab.alloc.SimExp;
import vramlab.figures.ExampleTable;

/**
 * The worked example of each of chapter 04's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-4.N.adoc}).
 */
public final class Ch04Examples {
    private Ch04Examples() {}

    /** Step 4.1: the toy's message for the lab's fragmentation and for a plain full card. */
    public static String example4_1() {
        ExampleTable t = ExampleTable.of("4.1", "the toy's OOM message", "scenario", "message");
        t.row("=the lab's fragmentation, then alloc(8 MiB)", labsOom());
        Sim full = new Sim(mib(40));
        full.alloc(mib(30));
        t.row("=a 40 MiB card holding a 30 MiB block, then alloc(12 MiB)", oom(full, mib(12)));
        return t.then("Each field comes from the allocator's report at the moment of failure: the request, "
                + "the device, what is reserved, what of that is free, and the largest free block.").toString();
    }

    /**
     * The message the lab's fragmentation scenario prints at its OOM. Not the Sim the scenario
     * returns: after the OOM it takes a 4 MiB hole, and an 8 MiB request then reads 12 MiB
     * reserved but unallocated where the lab, and the notes after this table, read 16.
     */
    static String labsOom() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        RealOomLab.fragmentation(new PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        String prefix = "OOM: ";
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> l.startsWith(prefix))
                .map(l -> l.substring(prefix.length())).findFirst()
                .orElseThrow(() -> new IllegalStateException("the lab's fragmentation printed no OOM line"));
    }

    private static String oom(Sim sim, long size) {
        try {
            sim.alloc(size);
            return "(no OOM)";
        } catch (CudaOutOfMemoryError e) {
            return e.getMessage();
        }
    }

    /** Step 4.2: fresh pages at the arena's top. */
    public static String example4_2() {
        SimExp s = new SimExp(mib(40));
        ExampleTable t = ExampleTable.of("4.2", "SimExp.alloc on a 40 MiB card", "call", "returns", "mapped after");
        for (long size : new long[] {mib(3) + 1, mib(5) + 1, 100}) {
            var m = s.alloc(size);
            t.row("alloc(" + readable(size) + ")", m.toString(), readable(s.mapped()));
        }
        return t.then("Each allocation takes the next VA at the arena's top and maps fresh 2 MiB pages for its "
                + "rounded size, so VA is always contiguous.").toString();
    }

    /** Step 4.3: pages go back at free, and the 8 MiB that fragmented the toy fits. */
    public static String example4_3() {
        SimExp s = new SimExp(mib(40));
        ExampleTable t = ExampleTable.of("4.3", "SimExp.free: the lab's fill and free, then 8 MiB",
                "after", "mapped", "result");
        java.util.List<SimExp.Mapping> small = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            small.add(s.alloc(mib(3) + 1));
            s.alloc(mib(5) + 1);
        }
        t.row("=four 4 MiB and four 6 MiB mappings", readable(s.mapped()), "");
        small.forEach(s::free);
        t.row("=free the four 4 MiB ones", readable(s.mapped()), "");
        String r;
        try {
            r = s.alloc(mib(8)).toString();
        } catch (CudaOutOfMemoryError e) {
            r = e.getMessage();
        }
        t.row("=alloc(8 MiB)", readable(s.mapped()), r);
        return t.then("Freeing unmaps the pages and releases them to the driver at once, so the 16 MiB freed "
                + "is physical memory any later request can map, at fresh contiguous VA.").toString();
    }
}
