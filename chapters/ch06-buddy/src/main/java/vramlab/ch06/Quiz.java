package vramlab.ch06;

import java.util.List;

/**
 * The chapter's quiz. Each question's key is checked by a graded test against the simulators,
 * so a key can never drift from what the code does.
 */
public final class Quiz {
    private Quiz() {}

    /** One multiple-choice question; {@code answer} indexes {@code choices}. */
    public record Question(String id, String text, List<String> choices, int answer) {
        public String key() { return choices.get(answer); }
    }

    public static final List<Question> QUESTIONS = List.of(
            new Question("q6.1", "A 16-unit buddy pool holds 16 one-unit blocks; every other one is freed. "
                    + "What is the largest request that succeeds?", List.of("8 units", "2 units", "1 unit", "none"), 2),
            new Question("q6.2", "In page units, which block is the buddy of the order-1 block at page 8?",
                    List.of("9", "10", "12", "6"), 1),
            new Question("q6.3", "With 16-token blocks, how many blocks does a 17-token sequence hold?",
                    List.of("1", "2", "17", "32"), 1),
            new Question("q6.4", "Sizes uniform on 1..1024 bytes go through a binary buddy. About what share "
                    + "of the allocated bytes is waste?", List.of("about 0%", "about 12%", "about 25%", "about 50%"), 2),
            new Question("q6.5", "A vLLM block pool has 10 blocks. How many can requests hold at once?",
                    List.of("10", "9", "8", "5"), 1),
            new Question("q6.6", "Why does a paged KV pool never make a request wait while enough bytes are free?",
                    List.of("its blocks are contiguous", "any free block can serve any request",
                            "it compacts on every free", "it reserves each request's maximum length"), 1),
            new Question("q6.7", "How many KV cache bytes does one token of Llama-3-8B in bf16 take?",
                    List.of("64 KiB", "128 KiB", "512 KiB", "800 KiB"), 1));

    /** The quiz as text, without the keys. */
    public static String text() {
        StringBuilder sb = new StringBuilder();
        for (Question q : QUESTIONS) {
            sb.append(q.id()).append(". ").append(q.text()).append('\n');
            for (int i = 0; i < q.choices().size(); i++) {
                sb.append("    ").append((char) ('a' + i)).append(") ").append(q.choices().get(i)).append('\n');
            }
        }
        return sb.toString();
    }
}
