package vramlab.labgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The student edition never shows a graded step's body, not even outside the step: no line of a
 * step's reference body (beyond trivial ones) appears anywhere in the generated labs/. The
 * release's check ({@code StepBodies} in quiz) takes as telling only the body lines found nowhere
 * in labs/, so a copy of the body elsewhere in labs/ (a reference shortcut shipped verbatim, as
 * {@code WholeSegmentRelease} spelled out step 3.5) is exactly what it cannot see; this test
 * does. A student found that one by grepping each body line over 28 characters against a release.
 */
class StepBodyElsewhereTest {
    /** Lines this long or shorter are too common to tell a body (the student's grep: over 28). */
    static final int TRIVIAL = 28;

    /** Step id + body line, and why it may appear elsewhere in labs/: shared scaffolding, not the step's algorithm. */
    static final Map<String, String> ALLOWED = Map.of(
            "5.1 if (!e.isOutOfMemory()) throw e;",
            "rethrow anything but out-of-memory: GpuProcess and BuddyAllocator catch the driver's error the same way",
            "5.2 if (r.size() == 0) return null;",
            "map_block and unmap_block (ExpandableBlocks.unmapBlock, not a step) both answer null when no page was"
                    + " (un)mapped, as in CUDACachingAllocator.cpp",
            "5.2 FreeSet pool = freeBlocks.get(kind);",
            "a pool's free set looked up by its kind: every allocator method that touches a pool starts so");

    @Test
    @DisplayName("no line of a step's reference body appears elsewhere in the generated labs/ (allow-list: shared scaffolding)")
    void noStepBodyElsewhere() {
        Path solutions = LabsMatchSolutionsTest.repoRoot().resolve("solutions");
        List<String> labsLines = new ArrayList<>();
        LabGenerator.generate(solutions).forEach((file, text) ->
                text.lines().forEach(l -> labsLines.add("labs/" + file + ": " + l.strip())));
        List<String> shown = new ArrayList<>();
        TreeSet<String> used = new TreeSet<>();
        for (Path f : LabGenerator.javaFiles(solutions.resolve("src/main/java"))) {
            String step = null;
            for (String line : LabGenerator.read(f).lines().toList()) {
                Matcher m = LabGenerator.BEGIN.matcher(line);
                if (m.matches()) {
                    step = m.group(2);
                    continue;
                }
                if (LabGenerator.END.matcher(line).matches()) step = null;
                String s = line.strip();
                if (step == null || s.length() <= TRIVIAL || s.startsWith("//")) continue;
                for (String l : labsLines) {
                    if (!l.substring(l.indexOf(": ") + 2).contains(s)) continue;
                    if (ALLOWED.containsKey(step + " " + s)) used.add(step + " " + s);
                    else shown.add("step " + step + "'s line '" + s + "' in " + l.substring(0, l.indexOf(": ")));
                }
            }
        }
        assertThat(shown).as("a step's body shown in labs/ outside the step: mark reference-only code"
                + " // lab:shortcut begin ... // lab:shortcut end (LabGenerator), or allow-list it here with the reason").isEmpty();
        assertThat(used).as("every allow-list entry still appears elsewhere in labs/ (else drop it)").isEqualTo(new TreeSet<>(ALLOWED.keySet()));
    }

    @Test
    @DisplayName("labs' empty_cache runs the student's step 3.5 every time: WholeSegmentRelease.run only calls it")
    void labsEmptyCacheRunsStep35() {
        String labs = LabGenerator.generate(LabsMatchSolutionsTest.repoRoot().resolve("solutions"))
                .get("src/main/java/vramlab/alloc/WholeSegmentRelease.java");
        String run = labs.substring(labs.indexOf("void run() {"), labs.indexOf("}", labs.indexOf("void run() {")) + 1);
        assertThat(run).isEqualToIgnoringWhitespace("void run() { release.releaseWholeFreeSegments(); }");
        assertThat(labs).doesNotContain("isSplit()", "releaseBlock(", "isCachedWhole", "releaseCachedWholeBlocks");
    }

    @Test
    @DisplayName("labs' unmap pass hands step 5.3 every free block of an expandable segment: ExpandableBlocks' shortcut is reference-only")
    void labsUnmapWalksEveryFreeBlock() {
        String labs = LabGenerator.generate(LabsMatchSolutionsTest.repoRoot().resolve("solutions"))
                .get("src/main/java/vramlab/alloc/ExpandableBlocks.java");
        int at = labs.indexOf("void unmapFreePages() {");
        String pass = labs.substring(at, labs.indexOf("\n    }\n", at));
        assertThat(pass).contains("List<Block> toUnmap = freeExpandableBlocks();")
                .doesNotContain("shortcut", "cached", "fastRelease");
        // the shortcut's whole-page test restated step 5.3's rounding (ExpandableSegment.unmap)
        assertThat(labs).doesNotContain("holdsWholePage", "page - 1) / page", "expandableCached", "FULL_WALK_MAX");
    }

    @Test
    @DisplayName("ch03's step table says what labs' empty_cache runs (both editions read the same notes)")
    void ch03NotesSayWhatLabsRuns() throws java.io.IOException {
        Path notes = LabsMatchSolutionsTest.repoRoot()
                .resolve("chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc");
        String row = java.nio.file.Files.readAllLines(notes).stream().filter(l -> l.startsWith("|3.5 |"))
                .findFirst().orElseThrow(() -> new AssertionError(notes + ": no step-table row for 3.5"));
        // The labs edition (the student's site and release) runs step 3.5 on every empty_cache
        // (labsEmptyCacheRunsStep35); only the reference takes the shortcut past FULL_WALK_MAX.
        assertThat(row).contains("in `labs/`, what `emptyCache` runs on every call")
                .doesNotContainPattern("runs while at most \\d+ blocks are free");
    }
}
