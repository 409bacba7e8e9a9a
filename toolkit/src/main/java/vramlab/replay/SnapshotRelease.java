package vramlab.replay;

import vramlab.alloc.AllocConf;
import vramlab.alloc.PyTorchRelease;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;

/**
 * Which PyTorch release's rules a snapshot's replay follows ({@link PyTorchRelease}): the one
 * given with {@code --pytorch-version}, else the one its recorded fields imply. {@code replay}
 * and {@code advise} both ask here, so they say the same thing about a file.
 */
public final class SnapshotRelease {
    private SnapshotRelease() {}

    /**
     * When snapshots began to record {@code allocator_settings}, as far as the kit knows: one
     * sentence for every report that says a file has none.
     */
    public static final String SETTINGS_SINCE = "allocator_settings were added by pytorch/pytorch#119404"
            + " (opened February 2024); of the real snapshots the kit is tested on, those written by 2.6"
            + " and later record them and those by 2.1 to 2.5 do not (the first release that wrote them"
            + " is not established)";

    /** A release and why the replay follows it. */
    public record Choice(PyTorchRelease release, String why) {
        /** {@code PyTorch 2.9's rules (why)}, for a report's policy line. */
        public String words() { return release + "'s rules (" + why + ")"; }
    }

    /**
     * The release the snapshot's fields imply: 2.10 when its trace entries carry
     * {@code user_metadata} (PR #165490 "[Mem Snapshot] Add Metadata Field", opened 2025-10-14,
     * after the 2.9 release branch) or its recorded config string parses only by 2.10's rules;
     * else 2.9, the oldest release the kit models.
     */
    public static Choice implied(Snapshot s) {
        if (s.entryKeys().contains("user_metadata")) {
            return new Choice(PyTorchRelease.V2_10, "implied: its trace entries carry user_metadata,"
                    + " added after 2.9 (pytorch/pytorch#165490, October 2025), so 2.10 or later");
        }
        if (s.settings() != null && onlyNewest(s.settings().conf())) {
            return new Choice(PyTorchRelease.V2_10, "implied: its recorded PYTORCH_CUDA_ALLOC_CONF parses only"
                    + " by 2.10's rules");
        }
        if (s.settings() != null) {
            return new Choice(PyTorchRelease.V2_9, "implied: it records allocator_settings and no"
                    + " user_metadata, so 2.9 or earlier");
        }
        if (s.layout().startsWith(SnapshotReader.SEGMENT_LIST)) {
            return new Choice(PyTorchRelease.DEFAULT, "the default: a bare segment list records no settings"
                    + " and no history, nothing that names a release");
        }
        return new Choice(PyTorchRelease.V2_9, "implied: it records no allocator_settings, so it is older"
                + " than 2.9, the oldest release the kit models");
    }

    /** {@code given} when not null (and what the file implies, where that differs), else {@link #implied}. */
    public static Choice of(Snapshot s, PyTorchRelease given) {
        Choice implied = implied(s);
        if (given == null) return implied;
        if (given == implied.release()) return new Choice(given, "--pytorch-version; the file agrees");
        String why = implied.why().startsWith("implied: ") ? implied.why().substring("implied: ".length())
                : implied.why();
        return new Choice(given, "--pytorch-version; the file implies " + implied.release().version() + ", " + why);
    }

    private static boolean onlyNewest(String conf) {
        if (conf == null || conf.isBlank()) return false;
        try {
            AllocConf.parse(conf, PyTorchRelease.DEFAULT.rules());
            return false;
        } catch (IllegalArgumentException e) {
            try {
                AllocConf.parse(conf, PyTorchRelease.V2_10.rules());
                return true;
            } catch (IllegalArgumentException again) {
                return false;
            }
        }
    }
}
