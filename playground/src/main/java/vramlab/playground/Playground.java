package vramlab.playground;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

import vramlab.ch01.MmuLab;
import vramlab.ch02.CudaMallocLab;
import vramlab.ch03.CachingAllocatorLab;
import vramlab.ch04.RealOomLab;
import vramlab.ch05.ExpandableLab;
import vramlab.ch06.BuddyLab;
import vramlab.ch07.PinnedLab;
import vramlab.kit.Scenario;

/**
 * One chapter's playground: the trace it opens on, its policy and card, and the chapter's own
 * lab scenarios that its "Run the lab" button runs (the very code {@code ./vramlab lab} runs).
 *
 * @param id     the chapter's module folder, {@code ch04-real-oom}
 * @param title  the heading the page shows, in both editions: a lab-only page's says nothing
 *               runs live, since the student edition's shows the reference's recorded output
 * @param trace  the trace the editor opens on, in the kit's trace format; empty where the
 *               chapter's mechanism is not a device trace (the page then runs the lab alone)
 * @param policy a {@link TraceRun.Choice} id
 * @param card   the card's memory, as the page's field shows it
 * @param lab    the lab's scenarios the page runs, in the lab's order
 */
public record Playground(String id, String title, String trace, String policy, String card,
                         Supplier<List<Scenario>> lab) {

    /** Every chapter's playground, in the course's order. */
    public static List<Playground> all() {
        return List.of(
                labOnly("ch01-mmu", "The GPU's MMU: the lab, in your browser", MmuLab::scenarios),
                labOnly("ch02-cudamalloc", "cudaMalloc: the lab, in your browser", CudaMallocLab::scenarios),
                cachingAllocator(), realOom(), expandable(),
                labOnly("ch06-buddy", "The buddy allocator: the lab's first two scenarios, in your browser",
                        () -> BuddyLab.scenarios().subList(0, 2)),
                labOnly("ch07-pinned", "Pinned host memory: the lab, in your browser", PinnedLab::scenarios));
    }

    /** Whether the page has a trace editor (else only the lab). */
    public boolean hasTrace() { return !trace.isEmpty(); }

    /** The playground of chapter {@code id} ({@code ch04-real-oom}, or its prefix {@code ch04}). */
    public static Playground of(String id) {
        for (Playground p : all()) {
            if (p.id().equals(id) || p.id().startsWith(id + "-")) return p;
        }
        throw new IllegalArgumentException("no playground for '" + id + "'");
    }

    /** What {@code ./vramlab lab} prints for this playground's scenarios. */
    public String labOutput() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Scenario.runAll(out, lab.get());
        return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    }

    /**
     * A chapter whose mechanism is not a device trace: the page runs its lab. (Chapter 6's page
     * runs the buddy's mechanics and its counterexample only: its serving scenarios take minutes
     * as JavaScript, where the JVM takes seconds.)
     */
    private static Playground labOnly(String id, String title, Supplier<List<Scenario>> lab) {
        return new Playground(id, title, "", "toy", "40MiB", lab);
    }

    /** Chapter 3: the lab's split and merge on one segment of a 40 MiB card. */
    static Playground cachingAllocator() {
        return new Playground("ch03-caching-allocator", "Split and merge, live", """
                # Chapter 3's lab: one 20 MiB segment split three ways, then freed from the middle.
                alloc a 4MiB   # a cold cache cudaMallocs a 20 MiB segment and splits it
                alloc b 6MiB
                alloc c 4MiB
                free b         # a hole between two live blocks
                free a         # merges with the hole on its right
                free c         # the segment is one free block again
                empty_cache    # and only now goes back to the driver
                """, "toy", "40MiB", CachingAllocatorLab::scenarios);
    }

    /** Chapter 5: the lab's workload on the 64 MiB card, under expandable segments. */
    static Playground expandable() {
        return new Playground("ch05-expandable-segments", "Expandable segments, live", """
                # Chapter 5's lab on a 64 MiB card; switch the policy to compare the three allocators.
                alloc a 30MiB    # an activation
                alloc b 1.5MiB   # a small tensor that stays live
                free a
                alloc c 46MiB    # 62.5 MiB hold no live data: which allocator finds 46 contiguous MiB?
                """, "pytorch+expandable", "64MiB", ExpandableLab::scenarios);
    }

    /** Chapter 4: the real-OOM lab's fragmentation on the 40 MiB card, and its expandable twin. */
    static Playground realOom() {
        return new Playground("ch04-real-oom", "Fragmentation and the real OOM, live", """
                # Chapter 4's lab on a 40 MiB card: alternate 4 MiB and 6 MiB blocks,
                # free the 4 MiB side, then ask for 8 MiB. Edit a line and press Run.
                alloc a0 3145729   # 3 MiB + 1 B: the toy rounds it up to a 4 MiB block
                alloc b0 5242881   # 5 MiB + 1 B: a 6 MiB block, kept live
                alloc a1 3145729
                alloc b1 5242881
                alloc a2 3145729
                alloc b2 5242881
                alloc a3 3145729
                alloc b3 5242881
                free a0
                free a1
                free a2
                free a3
                alloc big 8MiB     # 16 MiB free, in holes of 4 MiB
                alloc x 3145729    # a 4 MiB hole fits exactly
                empty_cache        # releases nothing: both segments hold live blocks
                """, "toy", "40MiB", () -> RealOomLab.scenarios().subList(0, 2));
    }
}
