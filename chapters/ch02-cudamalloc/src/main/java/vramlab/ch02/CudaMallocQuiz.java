package vramlab.ch02;

import java.util.List;

/** The chapter's quiz. Each answer is checked against the simulator by a graded test. */
public final class CudaMallocQuiz {
    private CudaMallocQuiz() {}

    /** One question, its answer, and why. */
    public record Question(String id, String text, String answer, String why) {}

    public static final List<Question> QUESTIONS = List.of(
            new Question("q2.1", "How much memory does cudaMalloc(3 MiB + 1 B) map?",
                    "4 MiB", "cudaMalloc maps whole 2 MiB pages; one byte over 3 MiB needs a second page."),
            new Question("q2.2", "A program calls cudaMalloc(64) one hundred times. How much memory is mapped?",
                    "200 MiB", "Each call gets its own 2 MiB page: 64 B of data per 2 MiB."),
            new Question("q2.3", "1000 training steps each cudaMalloc and cudaFree the same 10 tensors. "
                    + "How many driver calls is that?",
                    "20000", "10 allocations and 10 frees per step, each a call into the driver."),
            new Question("q2.4", "Through a caching allocator, how many cudaMalloc calls do steps 2 to 1000 "
                    + "add when every step repeats step 1's sizes?",
                    "0", "Freed blocks stay cached in their segments; the same sizes fit again."),
            new Question("q2.5", "After cuMemMap, which call must come before the device may touch the range?",
                    "cuMemSetAccess", "cuMemMap grants no access; the PTEs are not valid until access is set."),
            new Question("q2.6", "What does cuMemUnmap return for the first 2 MiB of a 4 MiB mapping?",
                    "CUDA_ERROR_INVALID_VALUE", "A mapping is unmapped whole or not at all."));

    public static String text() {
        StringBuilder b = new StringBuilder("Quiz, chapter 2 (answers: CudaMallocQuiz.answers())\n");
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
