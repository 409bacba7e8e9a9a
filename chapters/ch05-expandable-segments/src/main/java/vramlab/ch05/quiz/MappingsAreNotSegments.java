package vramlab.ch05.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.Map;

import vramlab.alloc.CachingAllocator;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * What {@code memory_stats()} says about expandable memory: mapped pages add to
 * {@code reserved_bytes} and {@code num_device_alloc} (once per mapping, not per page) but are
 * not counted as segments (CCA:2275-2290).
 */
public final class MappingsAreNotSegments implements Question {
    static final long DEVICE = mib(1024);

    @Override public String id() { return "q5.3"; }
    @Override public String notesSection() { return "\"The segment count tells you how many ranges are mapped\""; }
    @Override
    public String title() { return "Mappings are not segments: memory_stats() after one large tensor"; }

    /** The request: the practice variant's 100 MiB, or this student's size between 10 MiB and 300 MiB. */
    static long request(Variant v) {
        if (v.isSeed()) return mib(100);
        return v.between("size", mib(10) + 1, mib(300));
    }

    @Override
    public String prompt(Variant v) {
        long s = request(v);
        return "A fresh process on a card of " + Bytes.toyMiB(DEVICE) + " with " + Expandable.CONF
                + "\nallocates alloc(" + s + ")   (" + Bytes.readable(s) + ").\n"
                + "What does torch.cuda.memory_stats() say for (a) segment.all.current,\n"
                + "(b) reserved_bytes.all.current, (c) num_device_alloc?\n"
                + "(d) And segment.all.current for the same request with PyTorch's defaults?";
    }

    @Override
    public List<Part> parts(Variant v) {
        long s = request(v);
        CachingAllocator exp = Expandable.on(DEVICE);
        exp.alloc(s);
        Map<String, Long> stats = exp.memoryStats().asMap();
        CachingAllocator plain = Expandable.defaults(DEVICE);
        plain.alloc(s);
        return List.of(
                Part.of("a", 1, Blanks.number("q5.3.a.segments", stats.get("segment.all.current"))),
                Part.of("b", 1, Blanks.size("q5.3.b.reserved", stats.get("reserved_bytes.all.current"),
                        Bytes::parse)),
                Part.of("c", 1, Blanks.number("q5.3.c.device_allocs", stats.get("num_device_alloc"))),
                Part.of("d", 1, Blanks.number("q5.3.d.segments_default",
                        plain.memoryStats().asMap().get("segment.all.current"))));
    }
}
