package vramlab.advise;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.AllocConf;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.PyTorchRelease;

/**
 * One allocator setting a practitioner can change without touching the model: a
 * {@code PYTORCH_CUDA_ALLOC_CONF} string ({@link AllocConf} parses it as
 * c10/cuda/CUDAAllocatorConfig.cpp does), at most one line of code besides it (a memory fraction
 * set by {@code torch.cuda.set_per_process_memory_fraction}, where the release's parser has no
 * key for one), and what the user must know besides.
 *
 * @param conf         the string, empty for the defaults
 * @param extra        what else it takes, or empty
 * @param asRecorded   the row of a snapshot's own run: its recorded settings and addresses
 * @param codeFraction the memory fraction the code sets before its first CUDA allocation, or
 *                     -1 for none
 */
public record Setting(String conf, String extra, boolean asRecorded, double codeFraction) {
    public Setting {
        if (codeFraction != -1 && !(codeFraction >= 0 && codeFraction <= 1)) {
            throw new IllegalArgumentException("Setting: a memory fraction in [0, 1], or -1 for none: " + codeFraction);
        }
    }

    public Setting(String conf, String extra, boolean asRecorded) { this(conf, extra, asRecorded, -1); }

    public Setting(String conf, String extra) { this(conf, extra, false); }

    /** A snapshot's own run, recorded with {@code conf} (null when the file does not say). */
    public static Setting recorded(String conf) { return new Setting(conf == null ? "" : conf, "", true); }

    /**
     * What a max_split_size_mb row's recommendation adds: PyTorch's notes (docs/source/notes/cuda.rst,
     * "Environment variables") call the option "a last resort for a workload that is aborting due to
     * 'out of memory' and showing a large amount of inactive split blocks", whose "performance cost
     * can range from 'zero' to 'substantial' depending on allocation patterns".
     */
    static final String MAX_SPLIT = "PyTorch's notes call it a last resort for a run that fails with"
            + " out of memory and many inactive split blocks: its cost in speed ranges from zero to"
            + " substantial with the allocation pattern, so time a few steps with it";

    /** The settings {@code advise} compares under the default release ({@link #standard(PyTorchRelease)}). */
    public static List<Setting> standard() { return standard(PyTorchRelease.DEFAULT); }

    /**
     * The settings {@code advise} compares under {@code release}: the defaults, expandable
     * segments, three values of max_split_size_mb, four power-of-two divisions, and the
     * garbage-collection threshold. Every string is one {@code release}'s parser accepts
     * ({@link AllocConf#parse(String, AllocConf.Rules)}). The collection runs only under a
     * memory limit: in c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch@001074d, the allocator
     * the kit's 2.9 follows) {@code DeviceCachingAllocator::malloc} calls
     * {@code garbage_collect_cached_blocks} only {@code if (set_fraction &&
     * CUDAAllocatorConfig::garbage_collection_threshold() > 0.0)}, and {@code set_fraction} is
     * set by {@code setMemoryFraction} alone, what {@code torch.cuda.set_per_process_memory_fraction}
     * calls; from 2.10 the test is {@code allowed_memory_maximum.has_value()}, which
     * {@code setMemoryFraction} leaves empty for a fraction of 1.0 (PR #161035). So the row sets
     * a fraction below 1: 0.99 of the card, which costs 1% of it. 2.10's parser has a key for it,
     * {@code per_process_memory_fraction} (c10/cuda/CUDAAllocatorConfig.cpp @b944315,
     * parsePerProcessMemoryFraction); 2.9's refuses that key ({@code vramlab.alloc.AllocConfKeys}),
     * so under 2.9 the string holds the threshold alone and the fraction is the line of code
     * ({@link #code()}). Both rows are replayed alike: threshold 0.8, limit 0.99 of the card
     * from the first allocation on ({@link #policy(PyTorchRelease)}).
     */
    // tag::settings[]
    public static List<Setting> standard(PyTorchRelease release) {
        List<Setting> rows = new ArrayList<>(List.of(new Setting("", ""),
                new Setting("expandable_segments:True", ""),
                new Setting("max_split_size_mb:128", MAX_SPLIT),
                new Setting("max_split_size_mb:256", MAX_SPLIT),
                new Setting("max_split_size_mb:512", MAX_SPLIT),
                new Setting("roundup_power2_divisions:4", "")));
        if (release.rules().keys().contains("per_process_memory_fraction")) {
            rows.add(new Setting("garbage_collection_threshold:0.8,per_process_memory_fraction:0.99",
                    "the collection runs only under a memory limit, so this caps PyTorch at 99% of"
                            + " the card (1.0 is no limit, and no collection)"));
        } else {                                     // 2.9: no key for the limit, so a line of code
            rows.add(new Setting("garbage_collection_threshold:0.8",
                    "the collection runs only under a memory limit, which " + release + "'s parser has no key"
                            + " for: the call sets it, capping PyTorch at 99% of the device (once per device"
                            + " used; 0.99, as from 2.10 1.0 is no limit)",
                    false, 0.99));
        }
        return List.copyOf(rows);
    }
    // end::settings[]

    /** The line of code the setting takes besides the string, or empty. */
    public String code() {
        return codeFraction < 0 ? "" : "torch.cuda." + AllocConf.fractionCall(codeFraction);
    }

    /** How the table names it. */
    public String name() {
        if (asRecorded) return "as recorded" + (conf.isEmpty() ? "" : " (" + conf + ")");
        String base = conf.isEmpty() ? "default" : conf;
        return codeFraction < 0 ? base : base + " + " + AllocConf.fractionCall(codeFraction);
    }

    /** The string as {@code release}'s parser reads it (without the line of code). */
    public AllocConf parsed(PyTorchRelease release) { return AllocConf.parse(conf, release.rules()); }

    /** The string as the default release's parser reads it. */
    public AllocConf parsed() { return parsed(PyTorchRelease.DEFAULT); }

    /**
     * What the replay runs: the string read by {@code release}'s parser, under {@code release}'s
     * rules, with the memory fraction the code sets, if any, from the first allocation on.
     */
    public PyTorchPolicy policy(PyTorchRelease release) {
        PyTorchPolicy p = PyTorchPolicy.of(conf, release);
        return codeFraction < 0 ? p : p.withMemoryFraction(codeFraction);
    }
}
