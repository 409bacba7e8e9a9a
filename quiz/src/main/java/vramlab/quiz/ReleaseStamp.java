package vramlab.quiz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
 * Git is asked only when the kit's folder is its repository's top level ({@code git rev-parse
 * --show-toplevel}): a kit unpacked inside another repository (a course's own) is not that
 * repository's commit. A copy that is not a git checkout (a zip of the kit, a kit inside another
 * repository, git not installed) has no commit: it is stamped {@link #NONE}, the same on every
 * run, and a zip's entries get {@link #NO_DATE}.
 *
 * <p>{@value #SOURCE_DATE_EPOCH}, when set, is the date instead of the commit's (or the date of a
 * copy with no commit): whole seconds since 1970-01-01T00:00:00Z in ASCII decimal digits, as
 * {@code date +%s} prints them (reproducible-builds.org/specs/source-date-epoch, which asks a
 * malformed value to fail the build). The stamp's date is its UTC day; a zip entry gets its UTC
 * time of day too (see {@link #zipTime}).
 *
 * @param commit      the abbreviated commit id, or null for a copy with no commit
 * @param date        the commit's date (or {@value #SOURCE_DATE_EPOCH}'s), or null
 * @param uncommitted the working tree differs from the commit
 * @param epoch       {@value #SOURCE_DATE_EPOCH}'s seconds, or null when it is not set
 */
public record ReleaseStamp(String commit, LocalDate date, boolean uncommitted, Long epoch) {
    /** A copy of the kit that is not a git checkout. */
    public static final ReleaseStamp NONE = new ReleaseStamp(null, null, false, null);

    /** The date a zip's entries carry when there is no commit: the first a zip can hold (MS-DOS dates start in 1980). */
    public static final LocalDate NO_DATE = LocalDate.of(1980, 1, 1);

    /** The environment variable that dates a release in place of its commit (reproducible-builds.org). */
    public static final String SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH";

    /**
     * The latest {@value #SOURCE_DATE_EPOCH} taken: 2096-12-31T23:59:59Z. A zip's MS-DOS date holds
     * years to 2107, but Commons Compress (1.28.0, {@code ZipUtil.isDosTime}) gives an entry after
     * 2097-11-30T00:00Z extra time fields in absolute time, which would differ between time zones.
     */
    static final long LATEST_EPOCH = LocalDate.of(2096, 12, 31).atTime(23, 59, 59).toEpochSecond(ZoneOffset.UTC);

    /** The stamp of the kit at {@code root}: its git commit (or {@link #NONE}), dated by {@value #SOURCE_DATE_EPOCH} when set. */
    public static ReleaseStamp of(Path root) { return of(root, System.getenv(SOURCE_DATE_EPOCH)); }

    /**
     * The stamp of the kit at {@code root} with {@code sourceDateEpoch}, the value of
     * {@value #SOURCE_DATE_EPOCH} (null when it is not set).
     *
     * @throws IllegalArgumentException when {@code sourceDateEpoch} is not whole seconds in decimal
     *         digits, from 0 to {@link #LATEST_EPOCH}; the message names the variable and the value
     */
    public static ReleaseStamp of(Path root, String sourceDateEpoch) {
        Long epoch = sourceDateEpoch == null ? null : epoch(sourceDateEpoch);
        ReleaseStamp git = fromGit(root);
        if (epoch == null) return git;
        LocalDate day = LocalDate.ofInstant(java.time.Instant.ofEpochSecond(epoch), ZoneOffset.UTC);
        return new ReleaseStamp(git.commit, day, git.uncommitted, epoch);
    }

    /** {@code value}, {@value #SOURCE_DATE_EPOCH}'s, as seconds since the epoch. */
    static long epoch(String value) {
        String expected = ": expected whole seconds since 1970-01-01T00:00:00Z in decimal digits, as date +%s prints"
                + " them (reproducible-builds.org/specs/source-date-epoch)";
        if (!value.matches("[0-9]+")) {
            throw new IllegalArgumentException(SOURCE_DATE_EPOCH + " is '" + value + "'" + expected);
        }
        String digits = value.replaceFirst("^0+(?=.)", "");
        long s = digits.length() > 12 ? Long.MAX_VALUE : Long.parseLong(digits);     // past LATEST_EPOCH either way
        if (s > LATEST_EPOCH) {
            throw new IllegalArgumentException(SOURCE_DATE_EPOCH + " is '" + value + "'"
                    + (s == Long.MAX_VALUE ? "" : " (" + java.time.Instant.ofEpochSecond(s) + ")")
                    + ": expected a time no later than " + java.time.Instant.ofEpochSecond(LATEST_EPOCH)
                    + ", the latest the kit writes into a zip entry's date");
        }
        return s;
    }

    /** The commit of the kit at {@code root}, when {@code root} is its git repository's top level; else {@link #NONE}. */
    private static ReleaseStamp fromGit(Path root) {
        if (!isTopLevel(root)) return NONE;
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
        return new ReleaseStamp(f[0], date, status == null || !status.isEmpty(), null);
    }

    /**
     * Whether {@code root} is the top level of a git working tree (a checkout or a linked
     * worktree), not a folder inside another repository's tree.
     */
    static boolean isTopLevel(Path root) {
        List<String> top = git(root, "rev-parse", "--show-toplevel");
        if (top == null || top.size() != 1) return false;
        try {
            return Path.of(top.get(0).strip()).toRealPath().equals(root.toRealPath());
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /**
     * What it was made from, as a phrase: "commit 0da7a9b of 2026-12-05", with " plus uncommitted
     * changes" when the tree differed, or "a copy of the kit that is not a git checkout (no commit)";
     * with {@value #SOURCE_DATE_EPOCH}, the commit and ", dated 2026-12-05 by SOURCE_DATE_EPOCH".
     */
    public String phrase() {
        String dated = epoch == null ? "" : ", dated " + date + " by " + SOURCE_DATE_EPOCH;
        if (commit == null) return "a copy of the kit that is not a git checkout (no commit)" + dated;
        return "commit " + commit + (epoch == null ? " of " + date : "") + (uncommitted ? " plus uncommitted changes" : "") + dated;
    }

    /**
     * The time a zip entry carries: the commit's date at midnight where the zip is written (a zip
     * stores local time, MS-DOS style, so this gives the same bytes in every time zone), or {@link #NO_DATE}'s.
     * With {@value #SOURCE_DATE_EPOCH}: its UTC date and time of day, written as the zip's local
     * time the same way, to the 2 seconds a zip holds, and no earlier than {@link #NO_DATE}
     * (reproducible-builds.org's zip example: {@code max(315532800, SOURCE_DATE_EPOCH)}, {@code gmtime}).
     */
    public long zipTime() {
        if (epoch != null) {
            long s = Math.max(epoch, NO_DATE.atStartOfDay().toEpochSecond(ZoneOffset.UTC)) & ~1L;
            return LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        }
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
