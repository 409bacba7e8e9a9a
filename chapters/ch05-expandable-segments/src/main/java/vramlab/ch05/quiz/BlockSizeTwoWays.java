package vramlab.ch05.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * One large tensor, two configurations: PyTorch's defaults give it a cudaMalloc'd segment of
 * its own and split only when more than 1 MiB would remain; expandable segments map whole
 * 20 MiB pages and always split the block to the rounded request.
 */
public final class BlockSizeTwoWays implements Question {
    static final long DEVICE = mib(1024);

    @Override public String id() { return "q5.2"; }
    @Override public String notesSection() { return "The split rule changes"; }
    @Override
    public String title() { return "One tensor, two configurations: its block and what it reserves"; }

    /** The request: the practice variant's 25 MiB, or this student's size between 10 MiB and 60 MiB. */
    static long request(Variant v) {
        if (v.isSeed()) return mib(25);
        return v.between("size", mib(10) + 1, mib(60));
    }

    @Override
    public String prompt(Variant v) {
        long s = request(v);
        return "A fresh process on a card of " + Bytes.toyMiB(DEVICE) + " allocates one tensor: alloc("
                + s + ")   (" + Bytes.readable(s) + ").\n"
                + "With PyTorch's defaults: (a) the size of its block; (b) the memory reserved.\n"
                + "With " + Expandable.CONF + ": (c) the size of its block; (d) the memory reserved.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long s = request(v);
        CachingAllocator plain = Expandable.defaults(DEVICE);
        Block p = plain.alloc(s);
        CachingAllocator exp = Expandable.on(DEVICE);
        Block e = exp.alloc(s);
        return List.of(
                Part.of("a", 1, Blanks.size("q5.2.a.block", p.size(), Bytes::parse)),
                Part.of("b", 1, Blanks.size("q5.2.b.reserved", plain.reserved(), Bytes::parse)),
                Part.of("c", 1, Blanks.size("q5.2.c.block", e.size(), Bytes::parse)),
                Part.of("d", 1, Blanks.size("q5.2.d.reserved", exp.reserved(), Bytes::parse)));
    }
}
