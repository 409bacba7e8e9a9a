package vramlab.quiz.grade;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Class grading: every submission given (a folder, a {@code .zip} or a {@code .tar.gz}, named by
 * the student's id) graded by one {@link Grader}, several at once, into one gradebook that keeps
 * the rows of students not graded now, with one line of progress each. Nothing one submission
 * holds stops the class: what is no submission, and a second one for a student, is skipped and said.
 */
final class ClassGrading {
    private ClassGrading() {}

    static Grader.ClassResult grade(Grader grader, List<Path> dirs, Path out, int jobs, PrintStream log)
            throws IOException, InterruptedException {
        List<String> skipped = new ArrayList<>();
        Map<String, Path> byStudent = submissions(dirs, out, skipped);
        skipped.forEach(w -> log.println("skipped " + w));
        Gradebook book = Gradebook.open(out);
        Map<String, String> folders = folders(byStudent.keySet(), book.students());
        grader.inventory();
        grader.declared();
        int n = byStudent.size();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, n)));
        List<Future<Grader.Result>> futures = new ArrayList<>();
        try {
            for (Map.Entry<String, Path> e : byStudent.entrySet()) {
                futures.add(pool.submit(() -> {
                    String folder = folders.get(e.getKey());
                    Grader.Result r = grader.gradeOne(e.getKey(), folder, e.getValue(), out.resolve(folder));
                    String was = book.earlier(r.student());
                    if (was != null) {
                        List<String> f = new ArrayList<>(r.flags());
                        f.add(Grader.REGRADED + was + ")");
                        r = new Grader.Result(r.student(), r.rows(), List.copyOf(f), r.runId(), r.gradedAt(), r.millis(),
                                r.found());
                    }
                    book.put(r);
                    book.write();
                    log.println(progress(done.incrementAndGet(), n, r, folder));
                    return r;
                }));
            }
            List<Grader.Result> results = new ArrayList<>();
            for (Future<Grader.Result> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException ex) {
                    Throwable c = ex.getCause();
                    if (c instanceof IOException io) throw io;
                    if (c instanceof RuntimeException re) throw re;
                    throw new IllegalStateException(c);
                }
            }
            book.write();
            return new Grader.ClassResult(results, List.copyOf(skipped));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The submissions among {@code dirs}, by student id; what is skipped goes to {@code skipped},
     * with why: a path that is no submission, a second one for a student, and the reports folder
     * {@code out} itself. Run from the submissions' folder, {@code ./vramlab grade *} names
     * {@code grades/} too from the second run on, and it was graded as a student "grades" with
     * 0 points and a "no labs/ found" flag.
     */
    static Map<String, Path> submissions(List<Path> dirs, Path out, List<String> skipped) {
        Map<String, Path> byStudent = new LinkedHashMap<>();
        for (Path d : dirs) {
            if (sameFolder(d, out)) {
                skipped.add(d + ": the folder the reports go to (--out), not a submission");
                continue;
            }
            if (!SubmissionIntake.isSubmission(d)) {
                skipped.add(d + ": " + (Files.exists(d) ? "not a folder, a .zip or a .tar.gz" : "no such file or folder"));
                continue;
            }
            String student = SubmissionIntake.studentOf(d);
            Path before = byStudent.putIfAbsent(student, d);
            if (before != null) skipped.add(d + ": a second submission for " + student + " (graded " + before + ")");
        }
        return byStudent;
    }

    /**
     * The folder of each student graded now ({@link Grader#folderNames}), decided over them and the
     * students the gradebook already has, so a re-grade lands where the last grading did.
     */
    static Map<String, String> folders(Collection<String> graded, Collection<String> inGradebook) {
        List<String> ids = new ArrayList<>(graded);
        ids.addAll(inGradebook);
        Map<String, String> all = Grader.folderNames(ids);
        Map<String, String> folders = new LinkedHashMap<>();
        graded.forEach(id -> folders.put(id, all.get(id)));
        return folders;
    }

    private static boolean sameFolder(Path a, Path b) {
        try {
            return Files.isDirectory(a) && Files.isDirectory(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * {@code [37/200] alice: 212/254 in 4.1 s, labs/ at the top}, and the flags' first words; for
     * an id that is not its own folder name ({@link Grader#folderName}: José, _inventory) also
     * {@code reports in Jos_~1a2b3c4d/}, which the instructor could not otherwise find.
     */
    static String progress(int k, int n, Grader.Result r) {
        return progress(k, n, r, Grader.folderName(r.student()));
    }

    /** The progress line of a student whose reports went to {@code folder} ({@link Grader#folderNames}). */
    static String progress(int k, int n, Grader.Result r, String folder) {
        String f = r.flags().isEmpty() ? "" : " (" + String.join("; ", r.flags().stream()
                .map(x -> shortenedFlag(x, 60)).toList()) + ")";
        String where = r.found().isEmpty() ? "" : ", " + r.found();
        if (!folder.equals(r.student())) where += ", reports in " + folder + "/";
        return String.format(Locale.ROOT, "[%d/%d] %s: %d/%d in %.1f s%s%s", k, n, r.student(), r.earned(), r.total(),
                r.millis() / 1000.0, where, f);
    }

    /** Grader#gradeOne's flag for a core that did not compile: its head, the first error's file:line, its message. */
    private static final Pattern COMPILE_FLAG =
            Pattern.compile("(did not compile: the \\S+ core \\()([^()\\s]+:\\d+): (.*)\\)", Pattern.DOTALL);

    /**
     * A flag {@link #shortened} for the progress line, but a compile error's file and line are
     * always kept and its message is cut instead: cut at 60 characters, the line said "did not
     * compile: the driver core..." and the instructor had to open the CSV to learn where.
     */
    static String shortenedFlag(String flag, int max) {
        Matcher m = COMPILE_FLAG.matcher(flag);
        if (flag.length() <= max || !m.matches()) return shortened(flag, max);
        String head = m.group(1) + m.group(2) + ": ";
        return head + shortened(m.group(3), Math.max(20, max - head.length() - 1)) + ")";
    }

    /** {@code s} cut to at most {@code max} characters at a word's end, with "..." when cut: never mid-word. */
    static String shortened(String s, int max) {
        if (s.length() <= max) return s;
        int cut = s.lastIndexOf(' ', max - 3);
        String head = (cut > 0 ? s.substring(0, cut) : s.substring(0, max - 3)).stripTrailing();
        while (!head.isEmpty() && ",;:(".indexOf(head.charAt(head.length() - 1)) >= 0) {
            head = head.substring(0, head.length() - 1).stripTrailing();
        }
        return head + "...";
    }
}
