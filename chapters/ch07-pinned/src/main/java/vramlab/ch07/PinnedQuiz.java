package vramlab.ch07;

import java.util.List;

/**
 * Chapter 7's quiz. Each answer is checked against the simulator by a graded test
 * ({@code PinnedQuizTest}), so the key cannot drift from the code.
 */
public final class PinnedQuiz {
    /** One question: its id ({@code q7.N}), the text and the expected answer. */
    public record Question(String id, String text, String answer) {}

    private PinnedQuiz() {}

    public static List<Question> questions() {
        return List.of(
                new Question("q7.1", "You pin a 100 GB (100,000,000,000 B) buffer with pin_memory=True."
                        + " How many bytes does the pinned allocator own?", "137438953472 (128 GiB)"),
                new Question("q7.2", "A 3 MiB pinned tensor was freed and its copy has finished. Which of"
                        + " these requests reuse its block: 2.5 MiB, 1 MiB, 4 MiB?", "2.5 MiB and 4 MiB"),
                new Question("q7.3", "After `del t` of a 256 MiB pinned tensor and"
                        + " torch.cuda.synchronize(), what are owned and checked out?",
                        "owned 256 MiB, checked out 0"),
                new Question("q7.4", "With pinned_reserve_segment_size_mb:64 you pin and free 1 MiB, then"
                        + " call empty_host_cache(). How many bytes stay pinned?", "67108864 (64 MiB)"),
                new Question("q7.5", "A pinned staging buffer was used inside a captured CUDA graph and then"
                        + " deleted. After empty_host_cache(), is it still pinned?", "yes"),
                new Question("q7.6", "A block is freed while its non_blocking copy is still queued. Does the"
                        + " next request of the same size get it?", "no, not until the copy's event retires"));
    }

    /** The quiz as {@code ./vramlab quiz pinned} would print it. */
    public static String text() {
        StringBuilder sb = new StringBuilder("Chapter 7 quiz\n");
        for (Question q : questions()) sb.append(q.id()).append(". ").append(q.text()).append('\n');
        return sb.toString();
    }
}
