package vramlab.advise;

import java.util.List;

import vramlab.alloc.AllocConf;
import vramlab.alloc.PyTorchRelease;

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

    /** The settings {@code advise} compares under the default release ({@link #standard(PyTorchRelease)}). */
    public static List<Setting> standard() { return standard(PyTorchRelease.DEFAULT); }

    /**
     * The settings {@code advise} compares under {@code release}: the defaults, expandable
     * segments, three values of max_split_size_mb, four power-of-two divisions, and, where the
     * release's parser has a key for the limit it needs, the garbage-collection threshold. Every
     * row is a string {@code release}'s parser accepts ({@link AllocConf#parse(String,
     * AllocConf.Rules)}). The collection runs only under a memory limit:
     * CUDACachingAllocator.cpp's malloc calls {@code garbage_collect_cached_blocks} only when
     * {@code allowed_memory_maximum} has a value and the threshold is above 0, and from 2.10
     * {@code setMemoryFraction} leaves it empty for a fraction of 1.0. So the row sets a fraction
     * below 1: 0.99 of the card, which costs 1% of it, by the key
     * {@code per_process_memory_fraction} (c10/cuda/CUDAAllocatorConfig.cpp @b944315,
     * parsePerProcessMemoryFraction). 2.9's parser has no such key
     * ({@code vramlab.alloc.AllocConfKeys}): there the limit is set only from code, which is not
     * a setting, so under 2.9 the row is left out.
     */
    // tag::settings[]
    public static List<Setting> standard(PyTorchRelease release) {
        List<Setting> rows = new java.util.ArrayList<>(List.of(new Setting("", ""),
                new Setting("expandable_segments:True", ""),
                new Setting("max_split_size_mb:128", ""),
                new Setting("max_split_size_mb:256", ""),
                new Setting("max_split_size_mb:512", ""),
                new Setting("roundup_power2_divisions:4", "")));
        if (release.rules().keys().contains("per_process_memory_fraction")) {
            rows.add(new Setting("garbage_collection_threshold:0.8,per_process_memory_fraction:0.99",
                    "the collection runs only under a memory limit, so this caps PyTorch at 99% of"
                            + " the card (1.0 is no limit, and no collection)"));
        }
        return List.copyOf(rows);
    }
    // end::settings[]

    /** How the table names it. */
    public String name() {
        if (asRecorded) return "as recorded" + (conf.isEmpty() ? "" : " (" + conf + ")");
        return conf.isEmpty() ? "default" : conf;
    }

    /** The string as {@code release}'s parser reads it. */
    public AllocConf parsed(PyTorchRelease release) { return AllocConf.parse(conf, release.rules()); }

    /** The string as the default release's parser reads it. */
    public AllocConf parsed() { return parsed(PyTorchRelease.DEFAULT); }
}
