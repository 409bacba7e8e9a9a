package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * A whole copy handed in (a clone, a Download ZIP) brings the chapters' graded tests along. The
 * grader never runs them (the kit's own tests grade every submission), but a graded test the
 * student edited or deleted is worth a look: this names them, for the gradebook's flags.
 */
final class GradedTests {
    /** How many files a flag names before it says "and N more". */
    static final int SHOWN = 3;

    private GradedTests() {}

    /**
     * Flags for the kit's graded test sources that {@code submission} (a folder with
     * {@code chapters/} beside {@code labs/}) changed or lacks; none when it holds no
     * {@code chapters/} (only {@code labs/} handed in) or the kit's sources are not known.
     */
    static List<String> changed(Kit kit, Path submission) throws IOException {
        Path kitRoot = kitRoot(kit);
        if (kitRoot == null || !SubmissionIntake.isFolder(submission.resolve("chapters"))) return List.of();
        List<String> edited = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (String rel : gradedTestFiles(kitRoot)) {
            Path theirs = submission.resolve(rel);
            if (!Files.isRegularFile(theirs, java.nio.file.LinkOption.NOFOLLOW_LINKS)) deleted.add(rel);
            else if (!sameText(kitRoot.resolve(rel), theirs)) edited.add(rel);
        }
        List<String> flags = new ArrayList<>();
        if (!edited.isEmpty()) flags.add("graded test edited (the kit's own ran): " + names(edited));
        if (!deleted.isEmpty()) flags.add("graded test deleted (the kit's own ran): " + names(deleted));
        return flags;
    }

    /** The kit's root, from where its reference sources are ({@code ROOT/solutions/src/main/java}); or null. */
    static Path kitRoot(Kit kit) {
        Path src = kit.referenceSources();
        if (src == null || src.getNameCount() < 4) return null;
        Path root = src.toAbsolutePath().normalize().getParent().getParent().getParent().getParent();
        return Files.isDirectory(root.resolve("chapters")) ? root : null;
    }

    /** Every test source of the kit's chapters that declares a graded item, relative to the kit's root. */
    static List<String> gradedTestFiles(Path kitRoot) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(kitRoot.resolve("chapters"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> kitRoot.relativize(p).toString().replace('\\', '/').matches("chapters/[^/]+/src/test/java/.*"))
                    .sorted().toList()) {
                if (Files.readString(f).contains("@Graded(")) out.add(kitRoot.relativize(f).toString().replace('\\', '/'));
            }
        }
        return out;
    }

    /** Equal but for line endings (a copy checked out on Windows is not an edit). */
    private static boolean sameText(Path a, Path b) throws IOException {
        if (Files.size(b) > 4L * Files.size(a) + 4096) return false;
        byte[] x = Files.readAllBytes(a);
        byte[] y = Files.readAllBytes(b);
        return Arrays.equals(x, y) || new String(x).replace("\r\n", "\n").equals(new String(y).replace("\r\n", "\n"));
    }

    /**
     * The files named by their chapter's folder and file name ({@code ch06-buddy/GradedStepsTest.java}):
     * five chapters' graded tests are all {@code GradedStepsTest.java}, so the file name alone
     * read "GradedStepsTest.java, GradedStepsTest.java" and did not say which chapters.
     */
    static String names(List<String> files) {
        List<String> shown = files.stream().limit(SHOWN).map(GradedTests::shortName).toList();
        String s = String.join(", ", shown);
        return files.size() > SHOWN ? s + " and " + (files.size() - SHOWN) + " more" : s;
    }

    /** {@code chapters/ch06-buddy/src/test/java/vramlab/ch06/GradedStepsTest.java} as {@code ch06-buddy/GradedStepsTest.java}. */
    private static String shortName(String rel) {
        String file = rel.substring(rel.lastIndexOf('/') + 1);
        String[] parts = rel.split("/");
        return parts.length > 2 && parts[0].equals("chapters") ? parts[1] + "/" + file : file;
    }
}
