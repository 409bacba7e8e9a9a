package vramlab.triage;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a fix ladder, or a cause's check: its text, and which allocator setting it
 * changes, so that a reading from another build ({@link Rocm}) adds what that build reads to the
 * entries that change a setting, by what they do, not by what their prose happens to contain.
 */
public record Fix(String text, Sets sets) {
    /**
     * The allocator setting an entry changes. The two that write out the variable's name
     * ({@code PYTORCH_CUDA_ALLOC_CONF=...}) are told apart from the rung that names an option
     * alone, since a ROCm reader needs the variable's sentence only where the variable is named.
     */
    public enum Sets {
        /** No allocator setting. */
        NOTHING,
        /** {@code PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True}, the variable named. */
        EXPANDABLE_SEGMENTS,
        /** Another option of {@code PYTORCH_CUDA_ALLOC_CONF=...}, the variable named. */
        ALLOC_CONF,
        /** {@code max_split_size_mb}, named as an option without the variable (fragmentation's rung). */
        MAX_SPLIT_SIZE_MB,
        /**
         * {@code torch.cuda.set_per_process_memory_fraction}, the cap on what the allocator may
         * reserve: an entry that looks for one or changes it ({@link Release} drops it where the
         * message's release has none).
         */
        MEMORY_FRACTION
    }

    /** An entry that changes no allocator setting. */
    static Fix plain(String text) { return new Fix(text, Sets.NOTHING); }

    /** {@code texts} as entries that change no allocator setting. */
    static List<Fix> plain(List<String> texts) {
        List<Fix> out = new ArrayList<>();
        for (String t : texts) out.add(plain(t));
        return List.copyOf(out);
    }

    /** The entries' texts, in order. */
    static List<String> texts(List<Fix> fixes) {
        List<String> out = new ArrayList<>();
        for (Fix f : fixes) out.add(f.text());
        return List.copyOf(out);
    }

    /** This entry after {@code prefix} ("To confirm it: "), changing the same setting. */
    Fix after(String prefix) { return new Fix(prefix + text, sets); }
}
