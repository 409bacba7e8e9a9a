package vramlab.triage;

import java.util.ArrayList;
import java.util.List;

import vramlab.snapshot.RecordingCalls;

/**
 * What the message's own wording says about the release that printed it, where a check or fix
 * names something that release does not have. The wording dates the release ({@link Family}):
 * "C cached)" is 0.4 to 1.3, "R reserved in total by PyTorch)" 1.4 to 2.0, the sentences 2.1
 * and later.
 *
 * <ul>
 *   <li>{@code torch.cuda.set_per_process_memory_fraction} came with pytorch/pytorch#48172
 *       (opened November 2020, in 1.8; 1.7 shipped in October 2020 without it), so a message
 *       in the 0.4-to-1.3 wording had no fraction to look for: the entries that look for one
 *       ({@link Fix.Sets#MEMORY_FRACTION}) are dropped, and the check says what to compare
 *       instead.</li>
 *   <li>{@code expandable_segments} came with 2.1: pytorch/pytorch#100184 (27 April 2023,
 *       after 2.0 shipped in March) enabled in Meta's build what had "been merged from OSS"
 *       just before, and 2.0's parser refuses a key it does not know at the first CUDA
 *       allocation ({@code TORCH_CHECK(false, "Unrecognized CachingAllocator option: ", ...)}
 *       in c10/cuda/CUDACachingAllocator.cpp, {@code CachingAllocatorConfig::parseArgs}). The
 *       snapshot calls the checks name ({@code _record_memory_history(max_entries=...)},
 *       {@code _dump_snapshot}) are those of "Understanding CUDA Memory Usage", a page the docs
 *       gained in August 2023, for 2.1; 2.1's torch/cuda/memory.py keeps 2.0's call as
 *       {@code _record_memory_history_legacy(enabled, record_context=True,
 *       trace_alloc_max_entries=1, ...)}, which a boolean first argument still reaches
 *       ({@link RecordingCalls}, which advise reads too). So an entry that sets expandable
 *       segments ({@link Fix.Sets#EXPANDABLE_SEGMENTS}) says, for a message in an older
 *       wording, that it needs an upgrade first, and how 2.0 records a snapshot where the entry
 *       records one.</li>
 * </ul>
 */
final class Release {
    /** Appended to an entry that sets expandable segments, for a message older than 2.1. */
    static final String BEFORE_EXPANDABLE = "Not on the release that printed this: its wording is "
            + "PyTorch 2.0's or older, and " + vramlab.snapshot.RecordingCalls.EXPANDABLE_SINCE_2_1 + ". "
            + "Upgrade to 2.1 or later first; until then max_split_size_mb is the setting to try, "
            + "where the message's own hint names it.";

    /** ... and to one that also records a snapshot with 2.1's calls. */
    static final String BEFORE_DUMP_SNAPSHOT = "The snapshot calls named here are 2.1's too; 2.0 "
            + "records with " + RecordingCalls.record2_0("100000") + " and saves with "
            + RecordingCalls.SAVE_2_0 + ", in an except around the step that catches the error your "
            + "release raises (the first word of its message).";

    /** The check of {@link Finding#ROOM_ON_CARD} for a message older than the memory fraction. */
    static final String BEFORE_FRACTION_CHECK = "Compare nvidia-smi's used and free memory with "
            + "torch.cuda.memory_cached() (this release's name for what later releases call "
            + "memory_reserved) just before the failing step. This wording is PyTorch 0.4 to 1.3's, "
            + "older than torch.cuda.set_per_process_memory_fraction (1.8): no fraction can have "
            + "capped it.";

    private Release() {}

    /** Whether the message's wording predates expandable segments (2.1). */
    static boolean beforeExpandableSegments(Reading r) {
        return r.family() == Family.THC_LEGACY || r.family() == Family.CACHED
                || r.family() == Family.RESERVED_IN_TOTAL;
    }

    /** Whether the message's wording predates set_per_process_memory_fraction (1.8). */
    static boolean beforeMemoryFraction(Reading r) {
        return r.family() == Family.THC_LEGACY || r.family() == Family.CACHED;
    }

    /** {@code fixes} as the release that printed {@code r} can follow them. */
    static List<Fix> fixes(Reading r, List<Fix> fixes) {
        List<Fix> out = new ArrayList<>();
        for (Fix f : fixes) {
            if (f.sets() == Fix.Sets.MEMORY_FRACTION && beforeMemoryFraction(r)) continue;
            out.add(fix(r, f));
        }
        return List.copyOf(out);
    }

    /** One entry (a fix, or a check) as the release that printed {@code r} can follow it. */
    static Fix fix(Reading r, Fix f) {
        if (f.sets() == Fix.Sets.EXPANDABLE_SEGMENTS && beforeExpandableSegments(r)) {
            String snapshot = f.text().contains("_dump_snapshot") ? " " + BEFORE_DUMP_SNAPSHOT : "";
            return new Fix(f.text() + " " + BEFORE_EXPANDABLE + snapshot, f.sets());
        }
        if (f.sets() == Fix.Sets.MEMORY_FRACTION && beforeMemoryFraction(r)) {
            return Fix.plain(BEFORE_FRACTION_CHECK);
        }
        return f;
    }
}
