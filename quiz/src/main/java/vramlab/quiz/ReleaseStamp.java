package vramlab.quiz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a student release or an autograder zip says it was made from: the kit's git commit and
 * that commit's date, never the day it was written. Two releases made from the same commit are
 * then the same bytes, so an instructor can rebuild one and diff it against last term's (or CI
 * can check it) and see only what changed in the kit.
 *
 * <p>The commit is {@code git log -1 --format=%h %cs} in the kit's folder ({@code %cs}: the
 * committer date, YYYY-MM-DD; git-log(1), "PRETTY FORMATS"); a tree with uncommitted changes
 * (any line of {@code git status --porcelain}) says so, since its release is not that commit's.
 * A copy that is not a git checkout (a zip of the kit, git not installed) has no commit: it is
 * stamped {@link #NONE}, the same on every run, and a zip's entries get {@link #NO_DATE}.
 *
 * @param commit      the abbreviated commit id, or null for a copy with no commit
 * @param date        the commit's date, or null
 * @param uncommitted the working tree differs from the commit
 */
public record ReleaseStamp(String commit, LocalDate date, boolean uncommitted) {
    /** A copy of the kit that is not a git checkout. */
    public static final ReleaseStamp NONE = new ReleaseStamp(null, null, false);

    /** The date a zip's entries carry when there is no commit: the first a zip can hold (MS-DOS dates start in 1980). */
    public static final LocalDate NO_DATE = LocalDate.of(1980, 1, 1);

    /** The stamp of the kit at {@code root}: its git commit, or {@link #NONE}. */
    public static ReleaseStamp of(Path root) {
        List<String> head = git(root, "log", "-1", "--format=%h %cs");
        if (head == null || head.size() != 1) return NONE;
        String[] f = head.get(0).trim().split(" ");
        if (f.length != 2) return NONE;
        LocalDate date;
        try {
            date = LocalDate.parse(f[1]);
        } catch (java.time.format.DateTimeParseException e) {
            return NONE;
        }
        List<String> status = git(root, "status", "--porcelain");
        return new ReleaseStamp(f[0], date, status == null || !status.isEmpty());
    }

    /**
     * What it was made from, as a phrase: "commit 0da7a9b of 2026-12-05", with " plus uncommitted
     * changes" when the tree differed, or "a copy of the kit that is not a git checkout (no commit)".
     */
    public String phrase() {
        if (commit == null) return "a copy of the kit that is not a git checkout (no commit)";
        return "commit " + commit + " of " + date + (uncommitted ? " plus uncommitted changes" : "");
    }

    /**
     * The time a zip entry carries: the commit's date at midnight where the zip is written (a zip
     * stores local time, MS-DOS style, so this gives the same bytes in every time zone), or {@link #NO_DATE}'s.
     */
    public long zipTime() {
        return (date == null ? NO_DATE : date).atStartOfDay(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }

    /** Git's output lines, or null when git is missing, fails or this is not a checkout. */
    private static List<String> git(Path root, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", root.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(nullFile()))
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? out.lines().toList() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static java.io.File nullFile() {
        return new java.io.File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
