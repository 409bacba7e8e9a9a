package vramlab.quiz.feedback;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.quiz.NotesSection;

/**
 * A graded step's failure names the section of the notes to reread by its heading alone
 * ({@code Reread: ch03 "Rule 1: the rounding ladder".}, as {@link Feedback} and {@link StepOrder}
 * write it in the test's JVM, and the grader under a test that ran too long), which says what to
 * read but not where it is. This gives that line the place {@code quiz --check} gives its reread
 * line, from the same {@link NotesSection}: in the copy of the kit at {@code root}, the chapter's
 * rendered page with the section's anchor, else the AsciiDoc's {@code path:line}.
 * {@link #fromCwd} says it as a terminal shows it to a student standing in a folder
 * ({@code check}: a {@code file:} address, or the path from that folder), {@link #fromRoot} from
 * the copy's root ({@code grade}'s reports and results.json, where its quiz rows name theirs so):
 * <pre>
 * Reread: ch03 "Rule 1: the rounding ladder" (file:///home/ana/vramlab/docs/ch03-caching-allocator/notes.html#_rule_1_the_rounding_ladder).
 * </pre>
 * The heading stays; a line whose section the copy cannot place (no notes) is left as it was.
 */
public final class RereadPlaces {
    /** The line as the failures write it: {@code Reread: }, the chapter, the heading in quotes, a full stop. */
    static final Pattern LINE = Pattern.compile("^Reread: (ch\\d{2}) \"(.+)\"\\.$", Pattern.MULTILINE);

    private final Path root;
    private final Function<NotesSection, String> shown;
    private final Map<String, NotesSection> placed = new ConcurrentHashMap<>();   // each section looked up once

    private RereadPlaces(Path root, Function<NotesSection, String> shown) {
        this.root = root;
        this.shown = shown;
    }

    /** The places as a terminal shows them to someone in {@code cwd}, in the copy at {@code root} ({@link NotesSection#named(Path, Path)}). */
    public static RereadPlaces fromCwd(Path root, Path cwd) {
        return new RereadPlaces(root, s -> s.named(root, cwd));
    }

    /** The places named from the copy's root ({@link NotesSection#named()}), as {@code grade}'s quiz rows name theirs. */
    public static RereadPlaces fromRoot(Path root) {
        return new RereadPlaces(root, NotesSection::named);
    }

    /** {@code text} (a failure's reason) with each {@code Reread:} line's place added; every other line as it was. */
    public String in(String text) {
        if (text == null || !text.contains("Reread: ")) return text;
        Matcher m = LINE.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String chapter = m.group(1), heading = m.group(2);
            NotesSection s = placed.computeIfAbsent(chapter + " " + heading, k -> NotesSection.inCopy(root, chapter, heading));
            m.appendReplacement(sb, Matcher.quoteReplacement("Reread: " + shown.apply(s) + "."));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
