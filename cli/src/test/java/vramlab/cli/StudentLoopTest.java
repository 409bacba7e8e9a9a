package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * The student's loop, as a student walks it, on a scratch copy of labs/ marked STUDENT_COPY
 * (the launcher reads it through {@code -Dvramlab.labs}): JShell and the lab run the student's
 * own cores, {@code check} answers with expected vs actual and the mistake, working in order
 * says which step a test waits for, and a file that does not compile is reported by the
 * commands that need it, not by the others. The tests run in order on one copy, so the cores
 * compiled by one are reused by the next, as they are for a student; tests that need the same
 * copy are next to each other, so it is compiled once for them (each JShell or lab run is still
 * its own session).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("the student's loop on a copy of labs/")
class StudentLoopTest {
    @TempDir static Path tmp;
    static Path root;
    static Path labs;

    /**
     * Steps 6.1-6.3 and 7.1 written, nothing else: the buddy test (6.4 unwritten) and the pinned
     * test (7.2 unwritten) share this copy and its one compile. Neither core is built on the
     * other (CoreBuild.CORES), so each runs as it would with only its own chapter's steps.
     */
    static final List<String> BUDDY_AND_PINNED = List.of("6.1", "6.2", "6.3", "7.1");

    @BeforeAll
    static void studentCopy() throws IOException {
        root = KitPaths.root();
        labs = ScratchLabs.make(root, tmp.resolve("labs"), List.of(), Map.of());
        Files.writeString(labs.resolve("STUDENT_COPY"), "");
        System.setProperty(StudentCores.LABS, labs.toString());
    }

    @AfterAll
    static void done() { System.clearProperty(StudentCores.LABS); }

    /** Rewrites the scratch copy: these steps written, and the edits applied. */
    static void write(List<String> written, Map<String, UnaryOperator<String>> edits) throws IOException {
        ScratchLabs.make(root, labs, written, edits);
    }

    /** ToyPolicy with step 3.1's body replaced by {@code body}. */
    static Map<String, UnaryOperator<String>> roundSize(String body) {
        return Map.of("ToyPolicy.java", text -> {
            String marker = "throw new vramlab.lab.Todo(\"3.1\"";
            int at = text.indexOf(marker);
            assertThat(at).as("ToyPolicy holds step 3.1's Todo").isPositive();
            int end = text.indexOf('\n', at);
            return text.substring(0, at) + body + text.substring(end);
        });
    }

    @Test
    @Order(1)
    @DisplayName("in JShell, new Sim(mib(40)).alloc(100) throws step 3.1's Todo, with the section to read")
    void jshellThrowsTheStepsTodo() {
        CliRun r = CliRun.withInput("new Sim(mib(40)).alloc(100)\n", "jshell", "caching-allocator");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("Exception vramlab.lab.Todo: TODO step 3.1 (Round a request) is not written yet")
                .contains("ch03 \"Rule 1: the rounding ladder\"");
    }

    @Test
    @Order(2)
    @DisplayName("--reference runs the same line on the reference cores")
    void referenceStillAvailable() {
        CliRun r = CliRun.withInput("new Sim(mib(40)).alloc(100)\n", "jshell", "3", "--reference");
        assertThat(r.out()).contains("==> seg0[0..512)B 512B LIVE").doesNotContain("Todo");
    }

    @Test
    @Order(3)
    @DisplayName("after writing 3.1, JShell runs the student's rounding, and the next call needs 3.2")
    void jshellRunsTheStudentsRounding() throws IOException {
        write(List.of(), roundSize("return alignUp(requested, requested <= SMALL_SIZE ? MIN_BLOCK : LARGE_STEP)"
                + " + MIN_BLOCK;   // one step too many"));
        CliRun r = CliRun.withInput("new ToyPolicy().roundSize(100)\nnew Sim(mib(40)).alloc(100)\n", "jshell", "3");
        assertThat(r.out()).contains("==> 1024")
                .contains("Exception vramlab.lab.Todo: TODO step 3.2 (Find a block)");
    }

    @Test
    @Order(4)
    @DisplayName("check 3.1 fails with the call, expected against actual, and Score: 0/2")
    void checkShowsExpectedAgainstActual() {
        CliRun r = CliRun.of("check", "3.1");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).contains("3.1 Round a request").contains("FAIL")
                .contains("roundSize(1 B): expected 512 B but was 1 KiB").endsWith("Score: 0/2\n");
    }

    @Test
    @Order(5)
    @DisplayName("a common mistake is named with the rule it breaks and the section to reread")
    void checkNamesTheMistake() throws IOException {
        write(List.of(), roundSize("return requested <= SMALL_SIZE ? requested / MIN_BLOCK * MIN_BLOCK"
                + " : requested / LARGE_STEP * LARGE_STEP;"));
        CliRun r = CliRun.of("check", "3.1");
        assertThat(r.out()).contains("roundSize(1 B): expected 512 B but was 0 B").contains("Looks like: rounding down.")
                .contains("Rule: a block must hold the whole request").contains("Reread: ch03 \"Rule 1: the rounding ladder\"");
        // With the place to open, as quiz --check names it from where the command runs (the tests run in cli/):
        // the rendered page as a file: address, else the AsciiDoc's path:line from here. It named the heading alone.
        String line = r.out().lines().map(String::strip).filter(l -> l.startsWith("Reread: ")).findFirst().orElseThrow();
        assertThat(line).isEqualTo("Reread: " + vramlab.quiz.NotesSection.inCopy(root, "ch03", "Rule 1: the rounding ladder")
                .named(root, Path.of("")) + ".");
        java.util.regex.Matcher adoc = java.util.regex.Pattern.compile("\\((\\.\\./[^)]+\\.adoc):(\\d+)\\)\\.$").matcher(line);
        if (adoc.find()) {
            assertThat(Files.readAllLines(Path.of(adoc.group(1))).get(Integer.parseInt(adoc.group(2)) - 1))
                    .as("the line it names, from here").isEqualTo("=== Rule 1: the rounding ladder");
        } else {
            assertThat(line).contains("(file:///").endsWith("/ch03-caching-allocator/notes.html#_rule_1_the_rounding_ladder).");
        }
    }

    @Test
    @Order(6)
    @DisplayName("the lab runs scenario by scenario: the ladder prints, split and merge names step 3.2")
    void labRunsWhatItCan() throws IOException {
        write(List.of("3.1"), Map.of());
        CliRun r = CliRun.of("lab", "3");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("== The size ladder under the toy policy ==").contains("300000          300032")
                .contains("== Split and merge on one segment ==")
                .contains("[needs step 3.2] TODO step 3.2 (Find a block) is not written yet");
        assertThat(r.err()).contains("1 of 2 scenarios stopped");
    }

    @Test
    @Order(7)
    @DisplayName("with 3.1 and 3.2 written, both pass in full; every later test that runs through 3.3 says so; no invariant hides it")
    void workingInOrder() throws IOException {
        write(List.of("3.1", "3.2"), Map.of());
        CliRun r = CliRun.of("check", "3");
        assertThat(r.out()).doesNotContain("free block missing").doesNotContain("IllegalStateException")
                .contains("needs step 3.3 first").contains("TODO  a block splits only into a legal remainder");
        // 3.1's item, 3.2's three and 3.2 on its own: none waits for a later step (StepsInOrderTest)
        assertThat(r.out().lines().filter(l -> l.startsWith("  pass"))).as(r.out()).hasSize(5)
                .anyMatch(l -> l.contains("the smallest free block that fits is taken"))
                .anyMatch(l -> l.contains("pools never mix"))
                .anyMatch(l -> l.contains("an exact-size hole is reused"));
        assertThat(r.out().lines().filter(l -> l.startsWith("  FAIL"))).isEmpty();
    }

    /** ToyPolicy.java with a syntax error: the alloc core does not compile. */
    static void breakToyPolicy() throws IOException {
        write(List.of("3.1"), Map.of("ToyPolicy.java",
                t -> t.replace("public boolean shouldSplit(", "public boolean shouldSplit(int oops,,")));
    }

    static void noStackTrace(CliRun r) {
        assertThat(r.out() + r.err()).doesNotContain("\tat ").doesNotContain("Exception in thread");
    }

    @Test
    @Order(8)
    @DisplayName("a syntax error: check prints the compiler's file:line: message for the step, not a stack trace")
    void checkReportsTheCompiler() throws IOException {
        breakToyPolicy();
        CliRun r = CliRun.of("check", "3.1");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).contains("ERROR").contains("does not compile:")
                .containsPattern("labs/src/main/java/vramlab/alloc/ToyPolicy\\.java:\\d+: ").endsWith("Score: 0/2\n");
        assertThat(r.err()).contains("your alloc core").contains("does not compile");
        noStackTrace(r);
    }

    @Test
    @Order(9)
    @DisplayName("a syntax error: lab and jshell print the compiler's error and run with the reference's alloc core")
    void labAndJshellReportTheCompiler() {
        CliRun lab = CliRun.of("lab", "3");
        assertThat(lab.status()).isZero();
        assertThat(lab.err()).containsPattern("labs/src/main/java/vramlab/alloc/ToyPolicy\\.java:\\d+: ")
                .contains("The reference's alloc classes stand in for it").contains("--reference");
        assertThat(lab.out()).contains("== Split and merge on one segment ==").doesNotContain("[needs step");
        noStackTrace(lab);
        CliRun js = CliRun.withInput("new ToyPolicy().roundSize(100)\n", "jshell", "3");
        assertThat(js.err()).containsPattern("ToyPolicy\\.java:\\d+: ");
        assertThat(js.out()).contains("==> 512");
        noStackTrace(js);
    }

    @Test
    @Order(10)
    @DisplayName("a syntax error: --help, triage, replay and quiz never look at labs/ and work as before")
    void otherCommandsDoNotCare() throws IOException {
        assertThat(CliRun.of("--help").status()).isZero();
        assertThat(CliRun.withInput("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
                "triage").status()).isZero();
        Path trace = Files.writeString(tmp.resolve("t.trace"), "alloc a 3MiB\nfree a\n");
        assertThat(CliRun.of("replay", "--device", "40MiB", trace.toString()).status()).isZero();
        CliRun quiz = CliRun.of("quiz", "3");
        assertThat(quiz.status()).isZero();
        assertThat(quiz.out()).contains("q3.1");
    }

    @Test
    @Order(11)
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)   // without the bound it would never end
    @DisplayName("a step that loops forever: the lab stops its scenario at the limit, names the line, and ends with 1")
    void labStopsAnEndlessLoop() throws IOException {
        write(List.of(), roundSize("while (requested > 0) requested = requested | 1; return requested;"));
        CliRun r = CliRun.of("lab", "3", "--scenario-limit", "2");
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("== The size ladder under the toy policy ==")
                .containsPattern("  \\[stopped\\] still running after 2 s \\(a loop that never ends\\?\\): your line"
                        + " ToyPolicy\\.java:\\d+, in ToyPolicy\\.roundSize \\(step 3\\.1\\)\n")
                .doesNotContain("== Split and merge on one segment ==");
        assertThat(r.err()).contains("vramlab: lab ch03-caching-allocator ended at a scenario still running after 2 s;"
                + " the 1 after it did not run");
        noStackTrace(r);
    }

    @Test
    @Order(12)
    @DisplayName("a step that calls System.exit: the lab says so, names the line, and ends with 1")
    void labSaysSystemExit() throws IOException {
        write(List.of(), roundSize("System.exit(0); return requested;"));
        CliRun r = CliRun.of("lab", "3");
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).containsPattern("  \\[stopped\\] System.exit was called: your line ToyPolicy\\.java:\\d+,"
                + " in ToyPolicy\\.roundSize \\(step 3\\.1\\); a lab cannot go on after it, so it ends here, in \"")
                .doesNotContain("== Split and merge on one segment ==");
        write(List.of(), Map.of());
    }

    @Test
    @Order(13)
    @DisplayName("in JShell, a step that calls System.exit: JShell says so, names the line, and ends with 1")
    void jshellSaysSystemExit() throws IOException {
        write(List.of(), roundSize("System.exit(0); return requested;"));
        CliRun r = CliRun.withInput("1 + 1\nnew ToyPolicy().roundSize(100)\n2 + 2\n", "jshell", "3");
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("==> 2").doesNotContain("==> 4");
        assertThat(r.err()).containsPattern("vramlab: jshell: System.exit was called: your line ToyPolicy\\.java:\\d+,"
                + " in ToyPolicy\\.roundSize \\(step 3\\.1\\); it ends JShell, and the session with it\n");
        write(List.of(), Map.of());
    }

    @Test
    @Order(14)
    @DisplayName("in JShell, free with step 3.4 not written names it and changes nothing: the next line works, a second free names it again")
    void freeBeforeTheMergeIsWritten() throws IOException {
        write(List.of("3.1", "3.2", "3.3"), Map.of());
        CliRun r = CliRun.withInput("""
                var sim = new Sim(mib(40)); var a = sim.alloc(mib(4)); var b = sim.alloc(mib(4));
                sim.free(a)
                a
                sim.alloc(mib(1))
                sim.free(a)
                """, "jshell", "3");
        assertThat(r.status()).as(r.err()).isZero();
        String todo = "Exception vramlab.lab.Todo: TODO step 3.4 (Merge on free) is not written yet";
        assertThat(r.out()).as(r.out()).contains("a ==> seg0[0..4)M 4M LIVE\n").contains("==> seg1[0..1)M 1M LIVE")
                .doesNotContain("missing from its pool").doesNotContain("already free").doesNotContain("IllegalStateException");
        assertThat(r.out().split(java.util.regex.Pattern.quote(todo), -1)).as(r.out()).hasSize(3);
        write(List.of(), Map.of());
    }

    @Test
    @Order(15)
    @DisplayName("in JShell, a block another stream used, freed with step 3.4 not written: the alloc that collects it"
            + " names 3.4 and changes nothing, its event still pending; so does empty_cache")
    void pendingFreeBeforeTheMergeIsWritten() throws IOException {
        write(List.of("3.1", "3.2", "3.3"), Map.of());
        CliRun r = CliRun.withInput("""
                var sim = new Sim(mib(40)); var c = sim.allocator(); var a = sim.alloc(mib(4)); var b = sim.alloc(mib(4));
                c.recordStream(a, 1); sim.free(a); c.completeStream(1);
                sim.alloc(mib(1))
                c.checkInvariants(); c.pendingEvents()
                sim.alloc(mib(1))
                sim.emptyCache()
                c.checkInvariants(); c.pendingEvents()
                """, "jshell", "3");
        assertThat(r.status()).as(r.err()).isZero();
        String todo = "Exception vramlab.lab.Todo: TODO step 3.4 (Merge on free) is not written yet";
        assertThat(r.out()).as(r.out()).doesNotContain("missing from its pool").doesNotContain("IllegalStateException")
                .doesNotContain("1M LIVE");
        assertThat(r.out().split(java.util.regex.Pattern.quote(todo), -1)).as(r.out()).hasSize(4);
        assertThat(r.out().split("==> 1\n", -1)).as("pendingEvents() after each Todo: " + r.out()).hasSize(3);
        write(List.of(), Map.of());
    }
    @Test
    @Order(16)
    @DisplayName("in JShell, a buddy free with step 6.4 not written names it and changes nothing: the block stays live")
    void buddyFreeBeforeTheMergeIsWritten() throws IOException {
        write(BUDDY_AND_PINNED, Map.of());
        CliRun r = CliRun.withInput("""
                var b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24); var a = b.alloc(mib(3));
                b.free(a)
                b.checkInvariants(); b.allocated()
                b.alloc(mib(1))
                b.free(a)
                """, "jshell", "6");
        assertThat(r.status()).as(r.err()).isZero();
        String todo = "Exception vramlab.lab.Todo: TODO step 6.4 (Merge up) is not written yet";
        assertThat(r.out()).as(r.out()).contains("==> 4194304").doesNotContain("not a live block")
                .doesNotContain("IllegalStateException");
        assertThat(r.out().split(java.util.regex.Pattern.quote(todo), -1)).as(r.out()).hasSize(3);
        write(List.of(), Map.of());
    }

    @Test
    @Order(17)
    @DisplayName("in JShell, a pinned free with step 7.2 not written names it and changes nothing: the block stays allocated")
    void pinnedFreeBeforeTheFateIsWritten() throws IOException {
        write(BUDDY_AND_PINNED, Map.of());
        CliRun r = CliRun.withInput("""
                var sim = new PinnedSim(); var a = sim.pin(mib(3));
                sim.del(a)
                sim.allocator().checkInvariants(); a.allocated()
                sim.pin(mib(1)).allocated()
                sim.del(a)
                """, "jshell", "7");
        assertThat(r.status()).as(r.err()).isZero();
        String todo = "Exception vramlab.lab.Todo: TODO step 7.2 (Never recycle a captured block) is not written yet";
        assertThat(r.out()).as(r.out()).doesNotContain("already free").doesNotContain("IllegalStateException")
                .doesNotContain("==> false");
        assertThat(r.out().split(java.util.regex.Pattern.quote(todo), -1)).as(r.out()).hasSize(3);
        write(List.of(), Map.of());
    }

}
