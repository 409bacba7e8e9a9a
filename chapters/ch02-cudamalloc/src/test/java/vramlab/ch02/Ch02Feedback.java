package vramlab.ch02;

import java.util.List;

import vramlab.driver.CostModel;
import vramlab.driver.DriverCall;
import vramlab.gmmu.Access;
import vramlab.quiz.feedback.Feedback;

/** What chapter 2's graded tests say to a wrong answer (see {@link Feedback}). */
public final class Ch02Feedback {
    private Ch02Feedback() {}

    static final String COST = "ch02 \"The cost of calling the driver\"";
    static final String VMM = "ch02 \"The VMM calls\"";
    static final String SMI = "ch02 \"What nvidia-smi counts\"";

    /** What {@code micros} was asked. */
    public record Call(CostModel model, DriverCall call, long pages) {
        @Override public String toString() { return "micros(" + call + ", " + pages + ") on " + model; }
    }

    /** 2.1: the modelled microseconds of one call. */
    public static final Feedback<Call, Double> PRICE = Feedback.<Call, Double>forStep("2.1", COST)
            .showing(us -> us + " us")
            .mistake("the sync charged to a call that does not synchronize", (c, right, got) -> !c.call().synchronizes()
                    && got == right + c.model().syncMicros(), "only a call that synchronizes (cudaFree) pays the sync")
            .mistake("cudaFree's sync missing", (c, right, got) -> c.call().synchronizes()
                    && got == right - c.model().syncMicros(), "cudaFree synchronizes the device: it pays the sync")
            .mistake("pages charged to a call that maps none", (c, right, got) -> !c.call().touchesPages()
                    && got == right + c.model().perPageMicros() * c.pages(),
                    "reserving, releasing and freeing VA write no PTEs: only calls that touch pages pay per page")
            .mistake("the per-page cost missing", (c, right, got) -> c.call().touchesPages()
                    && got == right - c.model().perPageMicros() * c.pages(),
                    "a call that maps or unmaps pages pays per 2 MiB page, on top of its fixed cost");

    /** 2.2: a PTE's access after cuMemSetAccess. */
    public static final Feedback<String, Access> ACCESS = Feedback.<String, Access>forStep("2.2", VMM)
            .mistake("only the first page changed", (page, right, got) -> page.equals("second") && got != right
                    && got == Access.NONE, "cuMemSetAccess sets the access of EVERY 2 MiB page of the range")
            .mistake("a page outside the range changed", (page, right, got) -> page.equals("outside"),
                    "only the pages in [va, va + size) change; the rest keep their access")
            .mistake("the mapped part changed before the call was refused", (page, right, got) -> page.equals("refused"),
                    "check every page of the range first and change nothing unless all are mapped");

    /** 2.2: what cuMemSetAccess over a partly mapped range did. */
    public static final Feedback<String, String> REFUSAL = Feedback.<String, String>forStep("2.2", VMM)
            .mistake("a partly mapped range accepted", (what, right, got) -> what.isEmpty()
                    && got.equals("returned normally"),
                    "a range with an unmapped page is CUDA_ERROR_INVALID_VALUE: access is granted to mapped memory only")
            .mistake("a size 0 or unaligned range accepted", (what, right, got) -> what.equals("unaligned")
                    && got.equals("returned normally"),
                    "va and size must be multiples of the granularity (2 MiB) and size above 0,"
                            + " else CUDA_ERROR_INVALID_VALUE");

    /** What {@code NvidiaSmi.row} was asked about: the process's pages, context and requests. */
    public record Process(long mappedMiB, long contextMiB, long requestedBytes) {}

    /** 2.3: the row {@code pid, name, N MiB}. */
    public static final Feedback<Process, String> ROW = Feedback.<Process, String>forStep("2.3", SMI)
            .mistake("the context left out", (p, right, got) -> mib(got) == p.mappedMiB(),
                    "nvidia-smi charges a process its mappings AND its context (physicalBytes())")
            .mistake("the bytes asked for, not the pages mapped", (p, right, got) -> mib(got)
                    == p.contextMiB() + p.requestedBytes() / (1 << 20),
                    "the driver maps whole 2 MiB pages: nvidia-smi counts what is mapped, not what was asked")
            .mistake("bytes where MiB belong", (p, right, got) -> mib(got) > 1 << 20,
                    "the row shows whole MiB: used / 1 MiB");

    /** The number before {@code MiB} in a row, or -1. */
    static long mib(String row) {
        String[] f = row.trim().split("[ ,]+");
        for (int i = 1; i < f.length; i++) {
            if (f[i].equals("MiB")) return Long.parseLong(f[i - 1]);
        }
        return f.length > 0 && f[f.length - 1].matches("\\d+") ? Long.parseLong(f[f.length - 1]) : -1;
    }

    static List<Feedback<?, ?>> all() { return List.of(PRICE, ACCESS, REFUSAL, ROW); }
}
