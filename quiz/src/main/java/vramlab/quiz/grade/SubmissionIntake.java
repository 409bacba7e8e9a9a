package vramlab.quiz.grade;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;

/**
 * A submission as it really arrives, made into the folder the grader reads: a folder with
 * {@code labs/} at its root or one or two folders down (GitHub's "Download ZIP" nests
 * {@code vramlab-main/}, an LMS adds the student's folder, a whole clone brings {@code .git}),
 * the contents of {@code labs/} themselves ({@code src/main/java}, {@code answers/}), or a
 * {@code .zip} / {@code .tar.gz} of any of these.
 *
 * <p>An archive is unpacked into a scratch folder, never trusting it: an entry whose name
 * would land outside that folder (an absolute name, {@code ..}: "zip slip") is refused with the
 * whole archive; links, devices and a file over {@value #MAX_FILE} bytes are left out; what it
 * decompresses to in all, and its entries, are capped ({@value #MAX_READ} bytes, {@value
 * #MAX_ENTRIES} entries), so a zip bomb stops at the cap. {@code .git}, {@code target} and
 * {@code node_modules} are never written. Inside a folder no link is followed: the folder the
 * grader reads must be where it seems, and {@link Submission} copies only plain files.
 *
 * <p>Nothing here throws for the submission's own problems: a folder with nothing to grade, one
 * that cannot be read, an archive that is broken or refused, each comes back with no root and
 * a flag saying what was looked for, so the student is graded as an empty copy and the class
 * goes on.
 */
public final class SubmissionIntake {
    /** The most an archive may decompress to, in all (skipped entries included). */
    public static final long MAX_READ = 256L << 20;
    /** The most entries an archive may hold. */
    public static final int MAX_ENTRIES = 20_000;
    /** A file larger than this is left out of an unpacked archive (no lab source is near it). */
    public static final long MAX_FILE = 1L << 20;
    /** How many folders down {@code labs/} is looked for. */
    public static final int MAX_DEPTH = 2;
    /** Folders never searched or unpacked: a clone's history, build output, macOS zip litter. */
    static final Set<String> IGNORED = Set.of(".git", "target", "node_modules", "__MACOSX", ".idea", ".vscode");

    private SubmissionIntake() {}

    /**
     * What was found in one submission.
     *
     * @param root     the folder the grader reads (it holds {@code labs/}, or {@code labs/}'s
     *                 contents), or null when there is nothing to grade
     * @param where    what was found and where, for the progress line ({@code labs/ at ivan/vramlab-main/})
     * @param flags    what is missing or odd, for the gradebook
     */
    public record Found(Path root, String where, List<String> flags) {
        public Found {
            flags = List.copyOf(flags);
        }
    }

    /** A submission is a folder, a {@code .zip}, or a {@code .tar.gz} / {@code .tgz}. */
    public static boolean isSubmission(Path p) {
        return Files.isDirectory(p) || archiveKind(p) != null;
    }

    /** The student id a submission is named by: its file name without the archive's extension. */
    public static String studentOf(Path given) {
        Path name = given.toAbsolutePath().normalize().getFileName();
        if (name == null) return "root";
        String n = name.toString();
        String kind = Files.isDirectory(given) ? null : archiveKind(given);
        return kind == null ? n : n.substring(0, n.length() - kind.length());
    }

    /** {@code .zip}, {@code .tar.gz} or {@code .tgz} when {@code p} is a file named so, else null. */
    static String archiveKind(Path p) {
        if (!Files.isRegularFile(p)) return null;
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        for (String ext : List.of(".zip", ".tar.gz", ".tgz")) {
            if (n.endsWith(ext) && n.length() > ext.length()) return p.getFileName().toString().substring(n.length() - ext.length());
        }
        return null;
    }

    /**
     * Finds the folder to grade in {@code given}, unpacking it into {@code scratch} (a folder of
     * the grader's, emptied by the caller) when it is an archive.
     */
    public static Found open(Path given, Path scratch) {
        return open(given, scratch, Limits.DEFAULT);
    }

    /**
     * What an archive may cost.
     *
     * @param maxRead    the most it may decompress to, in all (skipped entries included)
     * @param maxEntries the most entries it may hold
     * @param maxFile    a file larger than this is left out
     */
    public record Limits(long maxRead, int maxEntries, long maxFile) {
        public static final Limits DEFAULT = new Limits(MAX_READ, MAX_ENTRIES, MAX_FILE);
    }

    /** {@link #open(Path, Path)} under other limits. */
    public static Found open(Path given, Path scratch, Limits limits) {
        String kind = archiveKind(given);
        if (kind == null) return locate(given, "");
        String name = given.getFileName().toString();
        try {
            int files = unpack(given, kind, scratch, limits);
            return locate(scratch, "unpacked " + name + " (" + files + (files == 1 ? " file" : " files") + "), ");
        } catch (Refused e) {
            return new Found(null, "could not unpack " + name, List.of("could not unpack " + name + ": " + e.getMessage()
                    + "; graded as an empty copy"));
        } catch (IOException | RuntimeException e) {
            return new Found(null, "could not unpack " + name, List.of("could not unpack " + name + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + " (not a readable " + kind + "?); graded as an empty copy"));
        }
    }

    /** The folder under {@code dir} (itself, or one or two folders down) that holds the lab work. */
    static Found locate(Path dir, String prefix) {
        Path top;
        try {
            top = dir.toRealPath();                 // the given folder may be a link (Gradescope's is)
            List<Path> level = List.of(top);
            for (int depth = 0; depth <= MAX_DEPTH && !level.isEmpty(); depth++) {
                List<Path> found = new ArrayList<>();
                for (Path d : level) if (holdsLabs(d, depth)) found.add(d);
                if (!found.isEmpty()) return found(top, found, prefix);
                List<Path> next = new ArrayList<>();
                for (Path d : level) next.addAll(subfolders(d));
                level = next;
            }
        } catch (AccessDeniedException e) {
            return new Found(null, prefix + "unreadable", List.of("could not read the submission: " + e.getFile()
                    + ": permission denied; graded as an empty copy"));
        } catch (NoSuchFileException e) {
            return new Found(null, prefix + "missing", List.of("the submission is gone: " + e.getFile()));
        } catch (IOException e) {
            return new Found(null, prefix + "unreadable", List.of("could not read the submission: " + e
                    + "; graded as an empty copy"));
        }
        return new Found(null, prefix + "no labs/", List.of("no labs/ found: looked for labs/src/main/java or"
                + " labs/answers/ at the top of the submission and one or two folders down, and for src/main/java or"
                + " answers/ at the top" + loose(dir) + "; graded as an empty copy"));
    }

    /**
     * What a submission holds without its folders, as a "found ..., upload ..." clause, or "": the
     * files uploaded one by one (Gradescope's upload dialog takes files as readily as folders)
     * lose the paths that say which core and which chapter they belong to.
     */
    static String loose(Path dir) {
        List<String> java = new ArrayList<>();
        List<String> sheets = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir, MAX_DEPTH + 1)) {
            s.limit(10_000).filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).forEach(p -> {
                String name = p.getFileName().toString();
                if (name.endsWith(".java")) java.add(name);
                else if (name.matches("ch\\d\\d\\.txt")) sheets.add(name);
            });
        } catch (IOException | RuntimeException e) {
            return "";
        }
        if (java.isEmpty() && sheets.isEmpty()) return "";
        List<String> kinds = new ArrayList<>();
        if (!java.isEmpty()) kinds.add(some(java, ".java file"));
        if (!sheets.isEmpty()) kinds.add(some(sheets, "answer sheet"));
        return ", but found " + String.join(" and ", kinds) + " without the folders that place them: upload the"
                + " labs/ folder itself, or the whole copy, so that each file keeps its path";
    }

    /** {@code CachingAllocator.java and 2 more .java files}, the first name in sorted order. */
    private static String some(List<String> names, String kind) {
        String first = names.stream().sorted().findFirst().orElseThrow();
        int more = names.size() - 1;
        return first + (more == 0 ? "" : " and " + more + " more " + kind + (more == 1 ? "" : "s"));
    }

    private static Found found(Path top, List<Path> found, String prefix) {
        Path root = found.get(0);
        List<String> flags = new ArrayList<>();
        if (found.size() > 1) {
            flags.add("more than one copy of labs/ (" + String.join(", ", found.stream().map(f -> shown(top, f)).toList())
                    + "): graded the one at " + shown(top, root));
        }
        String what = Files.isDirectory(root.resolve("labs"), LinkOption.NOFOLLOW_LINKS) ? "labs/" : "labs/'s contents";
        return new Found(root, prefix + what + " at " + shown(top, root), flags);
    }

    private static String shown(Path top, Path p) {
        String rel = top.relativize(p).toString().replace('\\', '/');
        return rel.isEmpty() ? "the top" : rel + "/";
    }

    /**
     * True when {@code d} holds the lab work: {@code labs/} with sources or sheets in it; at the
     * top only, also {@code labs/}'s own contents (a student who uploads that folder).
     */
    private static boolean holdsLabs(Path d, int depth) {
        Path labs = d.resolve("labs");
        if (isFolder(labs) && (isFolder(labs.resolve("src/main/java")) || isFolder(labs.resolve("answers")))) return true;
        return depth == 0 && (isFolder(d.resolve("src/main/java")) || isFolder(d.resolve("answers")));
    }

    /** A real folder, reached without following a link anywhere on the way (its parent is real). */
    static boolean isFolder(Path p) {
        try {
            return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && p.toRealPath().equals(p.toAbsolutePath().normalize());
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Path> subfolders(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> !IGNORED.contains(p.getFileName().toString()))
                    .sorted().toList();
        }
    }

    /** An archive refused as a whole, and why. */
    static final class Refused extends IOException {
        Refused(String why) { super(why); }
    }

    /** Unpacks {@code archive} into {@code into}; returns how many files it wrote. */
    static int unpack(Path archive, String kind, Path into, Limits limits) throws IOException {
        Files.createDirectories(into);
        Path base = into.toRealPath();
        Budget budget = new Budget(limits);
        try (InputStream raw = Files.newInputStream(archive)) {
            if (kind.equalsIgnoreCase(".zip")) {
                // Commons Compress, not java.util.zip.ZipInputStream: that one throws for a name that
                // is not UTF-8 (Windows' "Send to > Compressed folder" writes names in the OEM code
                // page, CP437, without the UTF-8 flag), which threw the whole submission out. Here
                // such a name reads with replacement characters (the Info-ZIP Unicode path field
                // first, where there is one). A stored entry followed by a data descriptor (a zip
                // written as a stream) stays refused: Commons Compress would hold it whole in
                // memory to find its end (measured: 22 MB allocated for a 6 MiB entry), outside
                // the cap on what an archive may decompress to.
                try (ZipArchiveInputStream zip = new ZipArchiveInputStream(raw, StandardCharsets.UTF_8.name(), true, false)) {
                    for (ZipArchiveEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                        budget.entry();
                        if (!e.isDirectory() && !e.isUnixSymlink()) write(base, e.getName(), zip, budget);
                    }
                } catch (IOException e) {
                    if (budget.entries == 0 && !(e instanceof Refused)) throw nothingIn(kind);   // no zip signature at all
                    throw e;
                }
            } else {
                try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(raw))) {
                    for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                        budget.entry();
                        if (plainFile(e)) write(base, e.getName(), tar, budget);   // links, devices: left out
                    }
                }
            }
        }
        if (budget.entries == 0) throw nothingIn(kind);
        return budget.written;
    }

    private static Refused nothingIn(String kind) {
        return new Refused("it holds nothing (an empty archive, or not a " + kind + " at all)");
    }

    /** A tar entry that is a plain file: not a link, a hard link, a device, a fifo or a folder. */
    private static boolean plainFile(TarArchiveEntry e) {
        byte f = e.getLinkFlag();
        return (f == TarArchiveEntry.LF_NORMAL || f == TarArchiveEntry.LF_OLDNORM || f == TarArchiveEntry.LF_CONTIG)
                && !e.getName().endsWith("/");
    }

    /** What an archive has cost so far. */
    private static final class Budget {
        final Limits limits;
        int entries;
        int written;
        long read;

        Budget(Limits limits) { this.limits = limits; }

        void entry() throws Refused {
            if (++entries > limits.maxEntries()) throw new Refused("more than " + limits.maxEntries() + " entries");
        }

        void read(long n) throws Refused {
            read += n;
            if (read > limits.maxRead()) {
                long m = limits.maxRead();
                throw new Refused("it decompresses to more than " + (m >= 1 << 20 ? (m >> 20) + " MiB" : m + " bytes"));
            }
        }
    }

    /** Writes one entry under {@code base}, or reads past it (counted) when it is not wanted. */
    private static void write(Path base, String name, InputStream in, Budget budget) throws IOException {
        Path to = target(base, name);
        boolean wanted = to != null;
        OutputStream out = null;
        byte[] buf = new byte[8192];
        long size = 0;
        try {
            if (wanted) {
                Files.createDirectories(to.getParent());
                out = Files.newOutputStream(to);
            }
            for (int n; (n = in.read(buf)) > 0; ) {
                budget.read(n);
                size += n;
                if (out != null && size > budget.limits.maxFile()) {   // too big to be a lab file: left out
                    out.close();
                    out = null;
                    Files.delete(to);
                    wanted = false;
                }
                if (out != null) out.write(buf, 0, n);
            }
        } finally {
            if (out != null) out.close();
        }
        if (wanted) budget.written++;
    }

    /**
     * Where entry {@code name} goes under {@code base}; null for one that is not wanted (under
     * {@code .git}, {@code target}, ...). An entry that would land outside {@code base} refuses
     * the archive.
     */
    static Path target(Path base, String name) throws Refused {
        String n = name.replace('\\', '/');
        if (n.startsWith("/") || n.matches("^[A-Za-z]:.*") || n.indexOf('\0') >= 0) {
            throw new Refused("entry '" + printable(name) + "' has an absolute name (refused: it would land outside"
                    + " the submission)");
        }
        List<String> parts = new ArrayList<>();
        for (String part : n.split("/")) {
            if (part.isEmpty() || part.equals(".")) continue;
            if (part.equals("..")) {
                throw new Refused("entry '" + printable(name) + "' climbs out with '..' (refused: it would land outside"
                        + " the submission)");
            }
            parts.add(part);
        }
        if (parts.isEmpty()) return null;
        for (String part : parts) if (IGNORED.contains(part)) return null;
        Path to = base.resolve(String.join("/", parts)).normalize();
        if (!to.startsWith(base)) {
            throw new Refused("entry '" + printable(name) + "' would land outside the submission (refused)");
        }
        return to;
    }

    private static String printable(String s) {
        String p = s.replaceAll("[\\p{Cntrl}]", "?");
        return p.length() > 120 ? p.substring(0, 117) + "..." : p;
    }
}
