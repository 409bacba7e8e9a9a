package vramlab.advise;

import java.util.List;

import vramlab.alloc.AllocConf;

/**
 * One allocator setting a practitioner can change without touching the model: a
 * {@code PYTORCH_CUDA_ALLOC_CONF} string ({@link AllocConf} parses it as
 * c10/cuda/CUDAAllocatorConfig.cpp does) and what the user must do besides setting it.
 *
 * @param conf  the string, empty for the defaults
 * @param extra what else it takes, or empty
 */
public record Setting(String conf, String extra) {
    /**
     * The settings {@code advise} compares: the defaults, expandable segments, three values of
     * max_split_size_mb, four power-of-two divisions, and the garbage-collection threshold, which
     * PyTorch applies only under a per-process memory fraction (CUDACachingAllocator.cpp: the
     * collection runs when {@code set_fraction} and a threshold are both set).
     */
    // tag::settings[]
    public static List<Setting> standard() {
        return List.of(new Setting("", ""),
                new Setting("expandable_segments:True", ""),
                new Setting("max_split_size_mb:128", ""),
                new Setting("max_split_size_mb:256", ""),
                new Setting("max_split_size_mb:512", ""),
                new Setting("roundup_power2_divisions:4", ""),
                new Setting("garbage_collection_threshold:0.8,per_process_memory_fraction:1.0",
                        "older releases: set the threshold here and call "
                                + "torch.cuda.set_per_process_memory_fraction(1.0) in code"));
    }
    // end::settings[]

    /** How the table names it. */
    public String name() { return conf.isEmpty() ? "default" : conf; }

    public AllocConf parsed() { return AllocConf.parse(conf); }
}
