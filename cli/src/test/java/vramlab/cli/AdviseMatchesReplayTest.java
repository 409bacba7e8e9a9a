package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.advise.Setting;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.replay.SnapshotRelease;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;
import vramlab.units.Bytes;

/**
 * {@code advise} and {@code replay} are one model of the run: on every real snapshot with a
 * history (../shared/real-snapshots), advise's first row is the run as recorded, its peak the
 * snapshot's own (from its segment actions), and every other row's peak reserved is what
 * {@code replay --alloc-conf ROW --device-index D} prints, within 1% or 2 MiB (advise prints
 * sizes rounded to two decimals). Both commands are run as a user runs them; their printed
 * figures are compared.
 *
 * <p>Plain {@code mvn test} checks a fast subset; {@code mvn test -Preal-snapshots} (what
 * {@code .ci/run} runs) checks every file, on its inferred card and on a card a quarter smaller
 * than its recorded peak.
 */
@DisplayName("advise's rows are what replay prints, on real snapshots")
class AdviseMatchesReplayTest {
    /** Small files with a history: a real OOM with empty_cache, and a history begun mid-run. */
    static final Set<String> FAST = Set.of("nesta-discrete-diffusion.oom.pickle.gz", "magma27.memory_snapshot.pickle.gz");

    /** The set's snapshots/ folder, or null without the set (RealSnapshotsFolder: one locator for every test). */
    static Path folder() {
        return RealSnapshotsFolder.snapshots().orElse(null);
    }

    static boolean all() { return "all".equals(System.getProperty("vramlab.realSnapshots")); }

    /** The files to check; one null (each test then skips, saying why) when the folder is absent. */
    static List<Path> files() throws Exception {
        Path dir = folder();
        List<Path> out = new ArrayList<>();
        if (dir == null) {
            out.add(null);
            return out;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                if (all() || FAST.contains(p.getFileName().toString())) out.add(p);
            }
        }
        return out;
    }

    @Test
    @DisplayName("the real snapshots are there (skipped, saying where, when ../shared is absent)")
    void present() throws Exception {
        assumeTrue(folder() != null, RealSnapshotsFolder.MISSING);
        assertThat(files()).isNotEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    @DisplayName("on the card the snapshot implies: the first row is the recorded peak, the others replay's")
    void inferredCard(Path f) throws Exception {
        compare(f, null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    @DisplayName("on a card a quarter smaller than the recorded peak (--device): the same, OOMs and all")
    void smallerCard(Path f) throws Exception {
        assumeTrue(all(), "the smaller card runs under -Preal-snapshots");
        assumePresent(f);
        Snapshot s = SnapshotFile.read(Files.readAllBytes(f), f.toString());
        Snapshot.Device d = SnapshotFile.pickDevice(s);
        assumeTrue(d != null && !d.trace().isEmpty(), f.getFileName() + " records no history");
        long peak = recordedPeak(run("replay", "--device-index", String.valueOf(d.index()), f.toString()));
        compare(f, Bytes.alignUp(peak * 3 / 4, 2 * Bytes.MiB) + "B");
    }

    private static void assumePresent(Path f) {
        assumeTrue(f != null, RealSnapshotsFolder.MISSING);
    }

    private static void compare(Path f, String card) throws Exception {
        assumePresent(f);
        Snapshot s = SnapshotFile.read(Files.readAllBytes(f), f.toString());
        Snapshot.Device d = SnapshotFile.pickDevice(s);
        assumeTrue(d != null && !d.trace().isEmpty(), f.getFileName() + " records no history");
        List<String> advise = new ArrayList<>(List.of("advise"));
        if (card != null) advise.addAll(List.of("--device", card));
        advise.add(f.toString());
        String table = run(advise.toArray(String[]::new));

        String recorded = run(with(card, "replay", "--device-index", String.valueOf(d.index()), f.toString()));
        long recordedPeak = recordedPeak(recorded);
        if (card == null) {
            assertThat(peakOf(table, "as recorded")).as(f + ": advise's first row is the recorded peak")
                        .isCloseTo(recordedPeak, within(recordedPeak));
        }
        for (Setting row : Setting.standard(SnapshotRelease.implied(s).release())) {
            // a row with a line of code replays with --memory-fraction (ReplayMemoryFractionTest
            // checks it on a trace); here under -Preal-snapshots only, to keep plain mvn test's time
            if (row.codeFraction() >= 0 && !all()) continue;
            String replay = run(with(card, replayArgs(row, d, f)));
            long replayed = replayedPeak(replay);
            assertThat(peakOf(table, row.name())).as(f + ": advise's " + row.name() + " row against replay")
                    .isCloseTo(replayed, within(replayed));
        }
    }

    /**
     * {@code replay --alloc-conf ROW}; a row with a line of code (2.9's garbage-collection row,
     * whose fraction 2.9's parser has no key for) with {@code --memory-fraction} for that line,
     * the command README and advise's help give for it.
     */
    private static String[] replayArgs(Setting row, Snapshot.Device d, Path f) {
        List<String> args = new ArrayList<>(List.of("replay"));
        if (row.codeFraction() >= 0) args.addAll(List.of("--memory-fraction", String.valueOf(row.codeFraction())));
        args.addAll(List.of("--alloc-conf", row.conf(), "--device-index", String.valueOf(d.index()), f.toString()));
        return args.toArray(String[]::new);
    }

    private static String[] with(String card, String... args) {
        List<String> out = new ArrayList<>(List.of(args));
        if (card != null) out.addAll(1, List.of("--device", card));
        return out.toArray(String[]::new);
    }

    /** 1% or 2 MiB, whichever is more. */
    private static org.assertj.core.data.Offset<Long> within(long peak) {
        return org.assertj.core.data.Offset.offset(Math.max(peak / 100, 2 * Bytes.MiB));
    }

    private static String run(String... args) {
        CliRun r = CliRun.of(args);
        assertThat(r.status()).as(String.join(" ", args) + "\n" + r.err()).isZero();
        return r.out();
    }

    private static final Pattern PEAK = Pattern.compile("(?m)^  peak reserved +(\\d+) +(\\d+)$");

    private static long recordedPeak(String replay) {
        Matcher m = PEAK.matcher(replay);
        assertThat(m.find()).as(replay).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static long replayedPeak(String replay) {
        Matcher m = PEAK.matcher(replay);
        assertThat(m.find()).as(replay).isTrue();
        return Long.parseLong(m.group(2));
    }

    /** The peak reserved advise prints for a row, back in bytes (a '*' after it: the recorded start's peak). */
    private static long peakOf(String table, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?: \\([^)]*\\))? +([\\d.]+ (?:bytes|KiB|MiB|GiB))\\*? ")
                .matcher(table);
        assertThat(m.find()).as("row " + name + " in\n" + table).isTrue();
        return Bytes.parse(m.group(1));
    }
}
