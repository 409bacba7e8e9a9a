package vramlab.ch04;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.alloc.OomReport;
import vramlab.quiz.feedback.Feedback;
import vramlab.units.Bytes;

/** What chapter 4's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch04Feedback {
    private Ch04Feedback() {}

    static final String MESSAGE = "ch04 \"Reading the toy's message\"";
    static final String TWIN = "ch04 \"The expandable twin\"";
    static final long MIB = 1 << 20;

    /** 4.1: the toy's OOM message for a report. */
    public static final Feedback<OomReport, String> OOM = Feedback.<OomReport, String>forStep("4.1", MESSAGE)
            .mistake("sizes in bytes, not MiB", (r, right, got) -> got.contains(Long.toString(r.tried())),
                    "every size in the message is whole MiB: toyMiB(bytes), 20971520 B is \"20 MiB\"")
            .mistake("the request where the allocator's attempt belongs", (r, right, got) ->
                    got.contains("Tried to allocate " + Bytes.toyMiB(r.requested()) + " ") && r.requested() != r.tried(),
                    "the message names what the allocator tried to get from the driver (report.tried(), the new"
                            + " segment), not the request that led to it")
            .mistake("the free memory of the device as reserved but unallocated", (r, right, got) ->
                    number(got, "is reserved but unallocated") == r.deviceFree() / MIB
                            && r.deviceFree() != r.reservedButUnallocated(),
                    "reserved but unallocated is reserved - allocated: bytes the cache holds that no tensor uses")
            .mistake("the right numbers in another format", (r, right, got) -> numbers(got).equals(numbers(right)),
                    "copy the toy's format exactly: CUDA out of memory. Tried to allocate T (device D; R reserved;"
                            + " U is reserved but unallocated; largest free block L)");

    /** 4.2 and 4.3: a SimExp figure (a mapping's size or offset, the bytes mapped) after the calls named. */
    public static final Feedback<String, Long> SIMEXP_ALLOC = Feedback.<String, Long>forStep("4.2", TWIN)
            .showing(Bytes::readable)
            .mistake("the request mapped as asked, not in whole pages", (what, right, got) -> what.equals("size")
                    && got % (2 * MIB) != 0, "the driver maps whole 2 MiB pages: 3 MiB + 1 B takes two, 100 B one")
            .mistake("the VA not bumped", (what, right, got) -> what.equals("offset") && got == 0 && right > 0,
                    "each mapping starts where the last one ended: top += its size")
            .mistake("a failed alloc kept its pages", (what, right, got) -> what.equals("mapped after OOM") && got > right,
                    "an alloc that runs out unmaps and releases the pages it took before it throws");

    /** 4.3: the bytes mapped, or where a mapping landed, after frees. */
    public static final Feedback<String, Long> SIMEXP_FREE = Feedback.<String, Long>forStep("4.3", TWIN)
            .showing(Bytes::readable)
            .mistake("the pages kept at free", (what, right, got) -> what.equals("mapped") && got > right,
                    "free unmaps and releases the mapping's pages at once: that is the expandable twin's point")
            .mistake("freed VA reused", (what, right, got) -> what.equals("offset") && got < right,
                    "SimExp never reuses VA: a new mapping goes at the top, where contiguous VA is always free");

    /** The whole MiB figures of a message, in order. */
    static List<Long> numbers(String message) {
        Matcher m = Pattern.compile("(\\d+) MiB").matcher(message);
        List<Long> out = new java.util.ArrayList<>();
        while (m.find()) out.add(Long.parseLong(m.group(1)));
        return out;
    }

    /** The MiB figure right before {@code words}, or -1. */
    static long number(String message, String words) {
        Matcher m = Pattern.compile("(\\d+) MiB " + Pattern.quote(words)).matcher(message);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static List<Feedback<?, ?>> all() { return List.of(OOM, SIMEXP_ALLOC, SIMEXP_FREE); }
}
