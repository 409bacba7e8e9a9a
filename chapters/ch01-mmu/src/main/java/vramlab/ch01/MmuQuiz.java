package vramlab.ch01;

import java.util.List;

/** The chapter's quiz. Each answer is checked against the simulator by a graded test. */
public final class MmuQuiz {
    private MmuQuiz() {}

    /** One question, its answer, and why. */
    public record Question(String id, String text, String answer, String why) {}

    public static final List<Question> QUESTIONS = List.of(
            new Question("q1.1", "In the 49-bit (VER2) layout, which root (PDE3) entry does VA 2^48 select?",
                    "2", "PDE3 decodes bits 48:47; 2^48 sets bit 48 only, so the index is binary 10."),
            new Question("q1.2", "How much VA does one PDE1 entry span?",
                    "512 MiB", "The levels below PDE1 decode bits 28:0, and 2^29 bytes is 512 MiB."),
            new Question("q1.3", "You reserve 100 TiB of VA on an 80 GiB card. How much GPU memory did that take?",
                    "none", "A reservation is VA only: no frames, and not even a page table below the root."),
            new Question("q1.4", "A process holds 30 GiB of cudaMalloc'd memory and a 500 MiB context. "
                    + "What does nvidia-smi report for it, in MiB?",
                    "31220", "30 x 1024 + 500: the driver charges the process its mappings plus its context."),
            new Question("q1.5", "Mapping 2 MiB with 4K pages instead of one 2M page costs how many extra "
                    + "page tables, and how many extra TLB entries to cover it?",
                    "1 table, 511 entries", "512 PTEs fill one PT_4K below PDE0, where the 2M PTE needed "
                    + "none; the TLB needs 512 entries instead of 1."),
            new Question("q1.6", "After cudaDeviceEnablePeerAccess, which aperture code does GPU 0's PTE "
                    + "for a page of GPU 1 carry?",
                    "1 (PEER_MEMORY)", "Aperture codes: 0 video memory, 1 peer, 2 and 3 system memory."));

    /** The questions, for {@code quiz()} in JShell. */
    public static String text() {
        StringBuilder b = new StringBuilder("Quiz, chapter 1 (answers: MmuQuiz.answers())\n");
        for (Question q : QUESTIONS) b.append("  ").append(q.id()).append(". ").append(q.text()).append('\n');
        return b.toString();
    }

    public static String answers() {
        StringBuilder b = new StringBuilder();
        for (Question q : QUESTIONS) {
            b.append("  ").append(q.id()).append(". ").append(q.answer()).append(" -- ").append(q.why()).append('\n');
        }
        return b.toString();
    }
}
