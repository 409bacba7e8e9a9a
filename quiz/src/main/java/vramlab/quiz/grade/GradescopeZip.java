package vramlab.quiz.grade;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * The Gradescope autograder zip ({@code ./vramlab release --gradescope FILE.zip}): what
 * Gradescope's image needs to grade a submission, and nothing else. At its root
 * {@code setup.sh} and {@code run_autograder} (from {@code quiz/gradescope/}, Gradescope's
 * entry points) and {@code salt.txt}, the instructor's salt; beside them the kit's sources for
 * what grading builds ({@code mvn -DskipTests package -pl cli -am}: the reference cores, the
 * chapters with their graded tests and questions, the harness, the toolkit, the launcher) with a
 * root pom that lists only those modules, and {@code labs/} (the launcher finds the kit by it).
 * Never build output ({@code target/}), {@code .git}, the benchmarks, the site, the playgrounds,
 * the decks or anything else at the kit's root (gradebooks, submissions, other salts).
 */
public final class GradescopeZip {
    /** Gradescope's limit is generous; the kit's zip is far under this, and a larger one means something leaked in. */
    public static final long MAX_BYTES = 20L << 20;
    /** Files at the kit's root that grading needs: the build and the launcher. */
    static final List<String> ROOT_FILES = List.of("pom.xml", "vramlab", "vramlab.cmd");
    /** Modules (and labs/) that grading builds or reads; chapters/ is added folder by folder. */
    static final List<String> MODULES = List.of("labgen", "solutions", "labs", "quiz", "toolkit", "cli");
    /** Never copied, at any depth. */
    static final Set<String> LEFT_OUT = Set.of("target", ".git", "node_modules", ".idea", ".vscode");
    /** Scripts that must be executable where Gradescope unpacks them. */
    static final Set<String> EXECUTABLE = Set.of("setup.sh", "run_autograder", "vramlab");

    private GradescopeZip() {}

    /** What was written: the zip, how many files it holds, and its size in bytes. */
    public record Written(Path zip, int files, long bytes) {}

    /**
     * The instructor's salt as this run is configured, read as {@link vramlab.quiz.Salt#resolve}
     * reads it ({@code -Dvramlab.salt}, {@code VRAMLAB_SALT}, or the first line of the file named
     * by {@code -Dvramlab.salt.file} or {@code VRAMLAB_SALT_FILE}), as the text of
     * {@code salt.txt}; an error when there is none.
     */
    public static String saltText() {
        String v = first(System.getProperty("vramlab.salt"), System.getenv("VRAMLAB_SALT"));
        if (v != null) return v.strip();
        String file = first(System.getProperty("vramlab.salt.file"), System.getenv("VRAMLAB_SALT_FILE"));
        if (file == null) {
            throw new IllegalArgumentException("no instructor salt: set VRAMLAB_SALT_FILE (or VRAMLAB_SALT) to the salt"
                    + " the students' sheets were printed with; the autograder marks the quiz with it");
        }
        try {
            String text = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
            int nl = text.indexOf('\n');
            String first = (nl < 0 ? text : text.substring(0, nl)).strip();
            if (first.isEmpty()) throw new IllegalArgumentException("salt file " + file + ": empty");
            return first;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("salt file " + file + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("salt file " + file + ": " + e.getMessage());
        }
    }

    private static String first(String a, String b) {
        if (a != null && !a.isBlank()) return a;
        return b != null && !b.isBlank() ? b : null;
    }

    /**
     * Writes the autograder zip of the kit at {@code kitRoot} with {@code salt} into {@code zip}
     * (through a temporary file, so a failed write leaves nothing half done).
     */
    public static Written write(Path kitRoot, String salt, Path zip) throws IOException {
        Path gs = kitRoot.resolve("quiz/gradescope");
        for (String f : List.of("setup.sh", "run_autograder")) {
            if (!Files.isRegularFile(gs.resolve(f))) throw new IllegalStateException(gs.resolve(f) + " is missing");
        }
        List<String[]> entries = new ArrayList<>();           // {name in the zip, file on disk or null}
        entries.add(new String[] {"setup.sh", gs.resolve("setup.sh").toString()});
        entries.add(new String[] {"run_autograder", gs.resolve("run_autograder").toString()});
        for (String f : ROOT_FILES) {
            if (!f.equals("pom.xml") && Files.isRegularFile(kitRoot.resolve(f))) {
                entries.add(new String[] {f, kitRoot.resolve(f).toString()});
            }
        }
        List<String> modules = new ArrayList<>(MODULES);
        try (Stream<Path> s = Files.list(kitRoot.resolve("chapters"))) {
            s.filter(p -> Files.isRegularFile(p.resolve("pom.xml"))).sorted()
                    .forEach(p -> modules.add("chapters/" + p.getFileName()));
        }
        for (String m : modules) addTree(kitRoot, kitRoot.resolve(m), entries);
        Path tmp = zip.toAbsolutePath().resolveSibling(zip.getFileName() + ".tmp");
        if (tmp.getParent() != null) Files.createDirectories(tmp.getParent());
        // Every entry dated by the commit zipped (ReleaseStamp), not the clock: one commit, one zip, the same bytes.
        long time = vramlab.quiz.ReleaseStamp.of(kitRoot).zipTime();
        int files = 0;
        try (OutputStream o = Files.newOutputStream(tmp); ZipArchiveOutputStream z = new ZipArchiveOutputStream(o)) {
            put(z, time, "salt.txt", (salt + "\n").getBytes(StandardCharsets.UTF_8));
            put(z, time, "pom.xml", rootPom(Files.readString(kitRoot.resolve("pom.xml")), modules)
                    .getBytes(StandardCharsets.UTF_8));
            files += 2;
            for (String[] e : entries) {
                put(z, time, e[0], Files.readAllBytes(Path.of(e[1])));
                files++;
            }
        }
        long bytes = Files.size(tmp);
        if (bytes > MAX_BYTES) {
            Files.delete(tmp);
            throw new IllegalStateException("the autograder zip would be " + (bytes >> 20) + " MiB, over "
                    + (MAX_BYTES >> 20) + " MiB: something that is not the kit's sources is in its modules");
        }
        Files.move(tmp, zip, StandardCopyOption.REPLACE_EXISTING);
        return new Written(zip, files, bytes);
    }

    /** Every file under {@code dir} but build output and history, named relative to {@code root}. */
    private static void addTree(Path root, Path dir, List<String[]> entries) throws IOException {
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                Path rel = root.relativize(p);
                boolean skip = false;
                for (Path part : rel) skip |= LEFT_OUT.contains(part.toString());
                if (!skip && !rel.getFileName().toString().equals(".vramlab-build.log")) {
                    entries.add(new String[] {rel.toString().replace('\\', '/'), p.toString()});
                }
            }
        }
    }

    private static void put(ZipArchiveOutputStream z, long time, String name, byte[] bytes) throws IOException {
        ZipArchiveEntry e = new ZipArchiveEntry(name);
        e.setTime(time);        // unset, Commons Compress stamps the entry with the clock
        e.setUnixMode(EXECUTABLE.contains(name.substring(name.lastIndexOf('/') + 1)) ? 0100755 : 0100644);
        z.putArchiveEntry(e);
        z.write(bytes);
        z.closeArchiveEntry();
    }

    private static final Pattern MODULE = Pattern.compile("\\n\\s*<module>([^<]+)</module>");

    /**
     * The kit's root pom with only {@code modules} in its default reactor (Maven reads every listed
     * module's pom, so one left out of the zip must leave the list); the profiles' own modules
     * stay (a profile is read only when it is asked for).
     */
    static String rootPom(String pom, List<String> modules) {
        int profiles = pom.indexOf("<profiles>");
        String head = profiles < 0 ? pom : pom.substring(0, profiles);
        String tail = profiles < 0 ? "" : pom.substring(profiles);
        Matcher m = MODULE.matcher(head);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, modules.contains(m.group(1).strip()) ? Matcher.quoteReplacement(m.group()) : "");
        m.appendTail(sb);
        return sb + tail;
    }
}
