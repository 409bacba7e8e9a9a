package vramlab.advise;

import java.util.List;

import vramlab.alloc.AllocConf;

/**
 * One allocator setting a practitioner can change without touching the model: a
 * {@code PYTORCH_CUDA_ALLOC_CONF} string ({@link AllocConf} parses it as
 * c10/cuda/CUDAAllocatorConfig.cpp does) and what the user must do besides setting it.
 *
 * @param conf       the string, empty for the defaults
 * @param extra      what else it takes, or empty
 * @param asRecorded the row of a snapshot's own run: its recorded settings and addresses
 */
public record Setting(String conf, String extra, boolean asRecorded) {
    public Setting(String conf, String extra) { this(conf, extra, false); }

    /** A snapshot's own run, recorded with {@code conf} (null when the file does not say). */
    public static Setting recorded(String conf) { return new Setting(conf == null ? "" : conf, "", true); }

    /**
     * The settings {@code advise} compares: the defaults, expandable segments, three values of
     * max_split_size_mb, four power-of-two divisions, and the garbage-collection threshold.
     * The collection runs only under a memory limit: CUDACachingAllocator.cpp's malloc calls
     * {@code garbage_collect_cached_blocks} only when {@code allowed_memory_maximum} has a value
     * and the threshold is above 0, and {@code setMemoryFraction} leaves it empty for a fraction
     * of 1.0 (pytorch/pytorch main, 2025; older releases set a limit for any fraction). So the
     * row sets a fraction below 1: 0.99 of the card, which costs 1% of it. The config key
     * {@code per_process_memory_fraction} exists only in newer releases
     * (c10/cuda/CUDAAllocatorConfig.cpp @b944315, parsePerProcessMemoryFraction).
     */
    // tag::settings[]
    public static List<Setting> standard() {
        return List.of(new Setting("", ""),
                new Setting("expandable_segments:True", ""),
                new Setting("max_split_size_mb:128", ""),
                new Setting("max_split_size_mb:256", ""),
                new Setting("max_split_size_mb:512", ""),
                new Setting("roundup_power2_divisions:4", ""),
                new Setting("garbage_collection_threshold:0.8,per_process_memory_fraction:0.99",
                        "the collection runs only under a memory limit, so this caps PyTorch at 99% of"
                                + " the card (1.0 is no limit, and no collection); releases without the"
                                + " per_process_memory_fraction key: set the threshold here and call"
                                + " torch.cuda.set_per_process_memory_fraction(0.99) in code"));
    }
    // end::settings[]

    /** How the table names it. */
    public String name() {
        if (asRecorded) return "as recorded" + (conf.isEmpty() ? "" : " (" + conf + ")");
        return conf.isEmpty() ? "default" : conf;
    }

    public AllocConf parsed() { return AllocConf.parse(conf); }
}
