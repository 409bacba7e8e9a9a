package vramlab.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.triage.FixLadder;

/**
 * The rules the course states once, checked wherever else the course states them: in notes,
 * decks and every text the kit generates (outputs, lab output, the triage's report). Each rule
 * looks for a second statement of one fact and fails it when it differs from the one taught.
 *
 * <ul>
 * <li><b>The fragmentation fix ladder</b> is {@link FixLadder#FRAGMENTATION_FIXES}. A sentence that
 * calls a rung "first", "second" ... "last" (or "rung N", or "cheapest to try") must name the rung
 * at that place; a sentence or list that names three or more rungs in a ladder's context must name
 * them in the ladder's order.</li>
 * <li><b>The VA ceiling</b> is 128 TiB (x86-64 user space, chapter 1). A sentence that puts an end,
 * a limit or an amount of address space at another number of TiB must also name 128 TiB, which
 * is how a sentence reconciles a quoted figure (the design note's 256 TiB) with the ceiling.</li>
 * <li><b>Expandable segments' unmapping</b> is PyTorch's: only whole free pages, only in
 * {@code empty_cache()} or the OOM retry. A sentence about expandable pages being unmapped,
 * returned or leaving must say "whole"/"wholly", name {@code empty_cache}/the retry, or be about
 * the chapter 4 twin (the toy, which unmaps at free by design); the claims this course used to
 * make ("no hole can strand them", "leave at once", "holes are returned") fail outright.</li>
 * </ul>
 */
public final class OneStory {
    private OneStory() {}

    /** One finding: where, which rule, and the sentence. */
    public record Finding(String where, String rule, String sentence) {
        @Override
        public String toString() { return where + ": " + rule + ": \"" + sentence + "\""; }
    }

    // ---- the ladder ------------------------------------------------------------------------

    /** What names each rung in prose, in the ladder's order (index 0 is rung 1). */
    static final List<Pattern> RUNGS = List.of(
            Pattern.compile("steady (?:tensor )?shapes|shapes steady|pad(?:ded|ding)? (?:or bucket|variable)"),
            Pattern.compile("expandable[_ ]segments|one env(?:ironment)? var(?:iable)?|the option\\b"),
            Pattern.compile("max_split_size"),
            Pattern.compile("smaller batch|lower the batch|shrink the batch|batch size"),
            Pattern.compile("restart"));
    private static final Pattern ORDINAL = Pattern.compile(
            "\\b(first|second|third|fourth|fifth|last) (?:rung|fix|step of the fix)|\\brung (\\d)\\b"
                    + "|cheapest to try");
    private static final Pattern LADDER_CUE = Pattern.compile("ladder|rung|cheapest|in order of cost");
    private static final Pattern LIST_ITEM = Pattern.compile("^\\s*(?:\\d+[.)]|[a-z][)]|\\*+|-)\\s+(.*)$");

    static {
        if (RUNGS.size() != FixLadder.FRAGMENTATION_FIXES.size()) {
            throw new IllegalStateException("OneStory.RUNGS has " + RUNGS.size() + " rungs, FixLadder has "
                    + FixLadder.FRAGMENTATION_FIXES.size());
        }
        for (int i = 0; i < RUNGS.size(); i++) {
            String name = FixLadder.FRAGMENTATION_FIXES.get(i).name();
            if (!RUNGS.get(i).matcher(name.toLowerCase(Locale.ROOT)).find()) {
                throw new IllegalStateException("OneStory.RUNGS[" + i + "] does not name FixLadder's rung "
                        + (i + 1) + " (" + name + "): keep the two in the same order");
            }
        }
    }

    // ---- the VA ceiling --------------------------------------------------------------------

    static final long CEILING_TIB = 128;
    private static final Pattern CEILING = Pattern.compile(
            "(?:ends?|ending|end of [a-z ]{0,20}|limit|ceiling)\\s+(?:at|just under|below|under|of|is)?\\s*"
                    + "(?:about\\s+)?(\\d+) ?TiB"
                    + "|(?:below|under) (\\d+) ?TiB"
                    + "|(\\d+) ?TiB (?:of (?:virtual )?address(?:es| space)|of VA|limit|ceiling|user)");

    // ---- expandable segments' unmapping ----------------------------------------------------

    private static final Pattern EXPANDABLE = Pattern.compile("expandable|simexp|\\btwin\\b");
    private static final Pattern GIVES_BACK = Pattern.compile(
            "unmap|\\bleave\\b|returned|gives? back|go back|goes back|released|strand");
    private static final Pattern QUALIFIED = Pattern.compile(
            "\\bwhole|wholly|empty_cache|retry|\\btwin|simexp|\\btoy\\b|simplif|inside (?:a|one) page"
                    + "|smaller than a page|at free time|page boundar");
    private static final List<Pattern> RETRACTED = List.of(
            Pattern.compile("no hole can strand"),
            Pattern.compile("pages leave at once"),
            Pattern.compile("holes'? power to strand"),
            Pattern.compile("holes are returned"),
            Pattern.compile("holes do not strand"),
            Pattern.compile("they would be unmapped"));

    /** Every finding in one text; {@code where} names it in the messages. */
    public static List<Finding> check(String where, String text) {
        List<Finding> out = new ArrayList<>();
        for (String s : sentences(text)) {
            String low = s.toLowerCase(Locale.ROOT);
            ladderSentence(where, s, low, out);
            vaCeiling(where, s, out);
            unmapping(where, s, low, out);
        }
        ladderLists(where, text, out);
        return out;
    }

    private static void ladderSentence(String where, String s, String low, List<Finding> out) {
        Matcher m = ORDINAL.matcher(low);
        while (m.find()) {
            int claimed = m.group(1) != null ? ordinal(m.group(1))
                    : m.group(2) != null ? Integer.parseInt(m.group(2)) : 1;
            int named = nearestRung(low, m.start(), m.end());
            if (named < 0 || !LADDER_CUE.matcher(low).find()) continue;
            if (low.contains(" when ") && m.group(0).equals("cheapest to try")) continue;
            if (claimed != named + 1) {
                out.add(new Finding(where, "the fix ladder puts " + FixLadder.FRAGMENTATION_FIXES.get(named).name()
                        + " at rung " + (named + 1) + ", this says " + m.group(0), s));
            }
        }
        if (LADDER_CUE.matcher(low).find()) {
            List<Integer> order = rungsInOrder(low);
            if (order.size() >= 3 && !increasing(order)) {
                out.add(new Finding(where, "the fix ladder's order is " + names() + ", this lists "
                        + namesOf(order), s));
            }
        }
    }

    /** Lists (bullets, numbered or lettered items) whose items each open with a rung. */
    private static void ladderLists(String where, String text, List<Finding> out) {
        List<Integer> run = new ArrayList<>();
        StringBuilder items = new StringBuilder();
        for (String line : (text + "\n").split("\n", -1)) {
            Matcher m = LIST_ITEM.matcher(line);
            int rung = -1;
            if (m.matches()) {
                String head = m.group(1).toLowerCase(Locale.ROOT);
                rung = rungAtStart(head.substring(0, Math.min(head.length(), 40)));
            }
            if (rung >= 0) {
                run.add(rung);
                items.append(line.strip()).append(" / ");
                continue;
            }
            if (m.matches() && !run.isEmpty()) continue;   // an item that names no rung: keep the list
            if (run.size() >= 2 && !increasing(run)) {
                out.add(new Finding(where, "a list of the fix ladder's rungs in the order " + namesOf(run)
                        + ", not " + names(), items.toString()));
            }
            run.clear();
            items.setLength(0);
        }
    }

    private static void vaCeiling(String where, String s, List<Finding> out) {
        Matcher m = CEILING.matcher(s);
        while (m.find()) {
            String n = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            if (Long.parseLong(n) == CEILING_TIB) continue;
            if (s.contains(CEILING_TIB + " TiB")) continue;
            out.add(new Finding(where, "the VA ceiling is " + CEILING_TIB + " TiB (x86-64 user space), this "
                    + "says " + m.group(0) + " without reconciling it", s));
        }
    }

    private static void unmapping(String where, String s, String low, List<Finding> out) {
        for (Pattern p : RETRACTED) {
            if (p.matcher(low).find()) {
                out.add(new Finding(where, "expandable segments unmap only whole free pages, at empty_cache() "
                        + "or the OOM retry; this repeats a retracted claim (" + p.pattern() + ")", s));
                return;
            }
        }
        if (!EXPANDABLE.matcher(low).find() || !GIVES_BACK.matcher(low).find()) return;
        if (!low.contains("page")) return;
        if (QUALIFIED.matcher(low).find()) return;
        out.add(new Finding(where, "a sentence on expandable segments giving pages back must say which "
                + "(whole free pages) and when (empty_cache() or the OOM retry), or that it is the twin", s));
    }

    // ---- helpers ---------------------------------------------------------------------------

    /** The text's sentences: paragraphs joined, AsciiDoc marks and list bullets kept as words. */
    static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String para : text.split("\\n\\s*\\n")) {
            String joined = para.replaceAll("\\s*\\n\\s*", " ").strip();
            if (joined.isEmpty()) continue;
            for (String s : joined.split("(?<=[.!?])\\s+(?=[A-Z*`\"_(])")) {
                if (!s.isBlank()) out.add(s.strip());
            }
        }
        return out;
    }

    private static int ordinal(String w) {
        return switch (w) {
            case "first" -> 1;
            case "second" -> 2;
            case "third" -> 3;
            case "fourth" -> 4;
            case "fifth" -> 5;
            default -> RUNGS.size();   // "last"
        };
    }

    /** The rung named closest to [start, end), or -1. */
    private static int nearestRung(String low, int start, int end) {
        int best = -1, bestDistance = Integer.MAX_VALUE;
        for (int i = 0; i < RUNGS.size(); i++) {
            Matcher m = RUNGS.get(i).matcher(low);
            while (m.find()) {
                int d = m.start() >= end ? m.start() - end : m.end() <= start ? start - m.end() : 0;
                if (d < bestDistance) {
                    bestDistance = d;
                    best = i;
                }
            }
        }
        return bestDistance <= 80 ? best : -1;
    }

    private static int rungAtStart(String head) {
        int best = -1, at = Integer.MAX_VALUE;
        for (int i = 0; i < RUNGS.size(); i++) {
            Matcher m = RUNGS.get(i).matcher(head);
            if (m.find() && m.start() < at && m.start() <= 3) {
                at = m.start();
                best = i;
            }
        }
        return best;
    }

    /** The distinct rungs a sentence names, in the order of their first mention. */
    private static List<Integer> rungsInOrder(String low) {
        record Hit(int at, int rung) {}
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < RUNGS.size(); i++) {
            Matcher m = RUNGS.get(i).matcher(low);
            if (m.find()) hits.add(new Hit(m.start(), i));
        }
        hits.sort((a, b) -> Integer.compare(a.at(), b.at()));
        List<Integer> out = new ArrayList<>();
        for (Hit h : hits) out.add(h.rung());
        return out;
    }

    private static boolean increasing(List<Integer> rungs) {
        for (int i = 1; i < rungs.size(); i++) if (rungs.get(i) <= rungs.get(i - 1)) return false;
        return true;
    }

    private static String names() {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < RUNGS.size(); i++) all.add(i);
        return namesOf(all);
    }

    private static String namesOf(List<Integer> rungs) {
        List<String> n = new ArrayList<>();
        for (int r : rungs) n.add(FixLadder.FRAGMENTATION_FIXES.get(r).name());
        return String.join(", ", n);
    }
}
