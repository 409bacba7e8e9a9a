package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

import vramlab.contest.Entries;
import vramlab.judge.Leaderboard;
import vramlab.judge.RecordedRuns;
import vramlab.judge.Run;
import vramlab.quiz.KitPaths;
import vramlab.quiz.build.CoreBuild;
import vramlab.quiz.grade.ChildWatch;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.SubmissionIntake;
import vramlab.workload.Workload;

/**
 * {@code vramlab contest --class SUBMISSION...}: a class's leaderboard. The reference entries
 * run once, here, on the reference cores; each submission is opened as the grader opens it
 * ({@link SubmissionIntake}), its cores compiled one at a time ({@link CoreBuild}), and its
 * entry run by {@code contest} in a child JVM on those cores against the reference's recorded
 * runs, so every student's index is priced against the same PyTorch. The child's CSV gives the
 * index and the first broken check, its entry's runs the curves. The child is watched as the
 * grader watches its children ({@link ChildWatch}): one that runs past {@code --time-bound},
 * prints past the grader's output cap or exits the JVM gets a row saying so, unranked, and the
 * others are still ranked.
 */
final class ClassContest {
    private ClassContest() {}

    static int run(ContestCommand c, Io io) throws Exception {
        Path root = StudentCores.root();
        if (KitPaths.isRelease(root) || !Files.isDirectory(root.resolve("solutions"))) {
            throw new UsageException("contest", "--class: a class leaderboard runs the reference entries: it needs the instructor's"
                    + " copy of the kit (with solutions/)");
        }
        if (StudentCores.inChild()) throw new UsageException("contest", "--class: not from a run on a student's cores");
        if (c.html != null) HtmlPage.checkWritable("contest", c.html);
        List<Workload> workloads = c.chosen(io);
        Path scratch = Files.createTempDirectory("vramlab-class");
        Path reference = scratch.resolve("reference-runs.csv");
        RecordedRuns refs = RecordedRuns.record(Entries.references(), workloads, c.seed,
                "by ./vramlab contest --class on the reference cores in solutions/");
        ContestCommand.write(refs, reference);
        Map<String, Path> byStudent = new LinkedHashMap<>();
        for (String s : c.klass) {
            Path d = Path.of(s);
            if (!SubmissionIntake.isSubmission(d)) {
                io.err().println("contest: skipped " + d + ": " + (Files.exists(d) ? "not a folder, a .zip or a .tar.gz"
                        : "no such file or folder"));
                continue;
            }
            String id = SubmissionIntake.studentOf(d);
            if (byStudent.putIfAbsent(id, d) != null) io.err().println("contest: skipped " + d + ": a second submission for " + id);
        }
        List<Leaderboard.Entry> entries = new ArrayList<>();
        Map<String, String> folders = Grader.folderNames(byStudent.keySet());   // Ana and ana: two folders on any disk
        for (Map.Entry<String, Path> e : byStudent.entrySet()) {
            Leaderboard.Entry entry = one(root, c, e.getKey(), e.getValue(), scratch.resolve(folders.get(e.getKey())),
                    reference, workloads);
            entries.add(entry);
            io.err().println("contest: " + entry.student() + ": " + (Double.isNaN(entry.index()) ? "-"
                    : String.format(Locale.ROOT, "%.1f", entry.index())) + (entry.note().isEmpty() ? "" : " (" + entry.note() + ")"));
        }
        List<Run> pytorch = workloads.stream().map(w -> refs.find(Entries.PYTORCH.name(), w)).toList();
        Leaderboard board = new Leaderboard("vramlab contest: the class", workloads, Entries.PYTORCH.name(), pytorch, entries);
        io.out().println("class leaderboard, best first (index: 100 x mean of 0.6 U + 0.4 D against PyTorch's recorded runs):");
        List<Integer> ranks = board.ranks();
        for (int i = 0; i < ranks.size(); i++) {
            Leaderboard.Entry e = board.ranked().get(i);
            io.out().printf(Locale.ROOT, "%4s  %-24s %6s  %s%n", ranks.get(i) == null ? "-" : ranks.get(i), e.student(),
                    Double.isNaN(e.index()) ? "-" : String.format(Locale.ROOT, "%.1f", e.index()), e.note());
        }
        if (c.csv != null) {
            try (var out = Files.newBufferedWriter(Path.of(c.csv))) {
                board.csv(out);
            }
        }
        if (c.html != null) HtmlPage.write("contest", c.html, board.html(c.top));
        return 0;
    }

    /** What the child printed, its first {@link Grader.Options#OUTPUT_CAP} bytes. */
    private static String said(Path output) throws IOException {
        try (var in = Files.newInputStream(output)) {
            return new String(in.readNBytes((int) Grader.Options.OUTPUT_CAP), StandardCharsets.UTF_8);
        }
    }

    /** One student's entry: compiled, run on its own cores, read back. */
    private static Leaderboard.Entry one(Path root, ContestCommand c, String id, Path given, Path work, Path reference,
                                         List<Workload> workloads) throws Exception {
        Files.createDirectories(work);
        SubmissionIntake.Found found = SubmissionIntake.open(given, work.resolve("unpacked"));
        Path sources = found.root() == null ? null : found.root().resolve("labs/src/main/java");
        if (sources == null || !Files.isDirectory(sources)) {
            return new Leaderboard.Entry(id, Double.NaN, "nothing to run: " + found.where(), List.of());
        }
        CoreBuild.Result built = new CoreBuild(sources, KitPaths.standIn(root), work.resolve("build"))
                .build(StudentCores.allCores());
        List<String> notes = new ArrayList<>();
        for (CoreBuild.Outcome o : built.failed()) notes.add("the " + o.core().name() + " core does not compile");
        // Without its own contest core the child would run the stand-in's entry and score it: unranked instead.
        if (built.failed().stream().anyMatch(o -> o.core().packages().contains(Entries.class.getPackageName()))) {
            return new Leaderboard.Entry(id, Double.NaN, String.join("; ", notes), List.of());
        }
        Path board = work.resolve("board.csv");
        Path runs = work.resolve("runs.csv");
        List<String> args = new ArrayList<>(c.workloadArgs());
        args.addAll(List.of("--recorded", reference.toString(), "--csv", board.toString(), "--entry-runs", runs.toString()));
        Path output = work.resolve("output.txt");
        ChildWatch.Ending end = ChildWatch.run(StudentCores.childCommand(root, built.classpath(), args), work, output,
                Duration.ofSeconds(c.timeBound), Grader.Options.OUTPUT_CAP);
        if (end.stoppedBy() != null) {
            notes.add(end.stoppedBy());
            return new Leaderboard.Entry(id, Double.NaN, String.join("; ", notes), List.of());
        }
        String said = said(output);
        if (!Files.isRegularFile(board)) {
            notes.add(end.status() > 1 ? "crashed: " + end.exitedSaying() : "its contest did not finish (status "
                    + end.status() + ")" + said.lines().filter(l -> l.startsWith("error") || l.contains("Exception"))
                    .findFirst().map(l -> ": " + l).orElse(""));
            return new Leaderboard.Entry(id, Double.NaN, String.join("; ", notes), List.of());
        }
        String student = Entries.STUDENT.name();
        double index = Double.NaN;
        try (var in = Files.newBufferedReader(board)) {
            for (CSVRecord r : CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                if (!r.get("entry").equals(student)) continue;
                if (r.get("workload").equals("index")) {
                    if (!r.get("points").isEmpty()) index = Double.parseDouble(r.get("points"));
                } else if (!r.get("broken").isEmpty() && notes.stream().noneMatch(n -> n.startsWith("broke"))) {
                    notes.add("broke check " + r.get("broken") + " on " + r.get("workload"));
                }
            }
        }
        if (Double.isNaN(index)) {
            notes.add(said.lines().filter(l -> l.contains("TODO step")).findFirst()
                    .map(l -> l.strip().replaceFirst("^" + student + "\\s+-\\s+", "")).orElse("not scored"));
        }
        List<Run> mine = new ArrayList<>();
        if (Files.isRegularFile(runs)) {
            RecordedRuns r;
            try (var in = Files.newBufferedReader(runs)) {
                r = RecordedRuns.read(in, runs.toString());
            }
            for (Workload w : workloads) {
                Run one = r.find(student, w);
                if (one != null) mine.add(one);
            }
        }
        return new Leaderboard.Entry(id, index, String.join("; ", notes), mine);
    }
}
