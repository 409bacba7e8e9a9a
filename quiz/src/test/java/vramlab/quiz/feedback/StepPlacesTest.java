package vramlab.quiz.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;

/** Where each step is written, read from the kit's sources, so a failure can name the student's own line. */
class StepPlacesTest {
    @Test
    @DisplayName("every marked step has a place: its class, the method it ends, and its marker's section")
    void everyStep() {
        var root = KitPaths.root();
        Map<String, StepPlaces.Place> places = StepPlaces.read(root);
        List<LabGenerator.Step> steps = LabGenerator.steps(root.resolve("solutions"));
        assertThat(places.keySet()).containsExactlyInAnyOrderElementsOf(steps.stream().map(LabGenerator.Step::id).toList());
        for (LabGenerator.Step s : steps) assertThat(places.get(s.id()).section()).isEqualTo(s.notes());
        assertThat(places.get("6.1")).isEqualTo(new StepPlaces.Place("6.1", "vramlab.buddy.BuddyAllocator", "orderFor",
                "ch06 \"Rule 1: round up to a power of two\""));
        assertThat(places.get("1.1").simpleName()).isEqualTo("AddressSpace.walk");
    }

    @Test
    @DisplayName("the method is the nearest declaration above the marker at a smaller indent; a constructor is <init>")
    void methodAbove() {
        List<String> lines = List.of(
                "class Pool {",
                "    Pool(long size,",
                "         int order) {",
                "        if (size > 0) {",
                "            run(() -> foo(1));",
                "        // lab:begin 9.1 \"x\" see ch09 \"y\"",
                "    }",
                "    public static <T> List<T> pick(int n) {",
                "        int k = count(n);",
                "        // lab:begin 9.2 \"x\" see ch09 \"y\"");
        assertThat(StepPlaces.methodAbove(lines, 5)).isEqualTo("<init>");
        assertThat(StepPlaces.methodAbove(lines, 9)).isEqualTo("pick");
    }

    @Test
    @DisplayName("a frame runs a step when it is in the step's method or a lambda inside it, not elsewhere in the class")
    void runs() {
        StepPlaces.Place p = new StepPlaces.Place("6.1", "vramlab.buddy.BuddyAllocator", "orderFor", "s");
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocator", "orderFor", "B.java", 1))).isTrue();
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocator", "lambda$orderFor$0", "B.java", 1))).isTrue();
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocator", "alloc", "B.java", 1))).isFalse();
        assertThat(p.runs(new StackTraceElement("vramlab.buddy.BuddyAllocatorX", "orderFor", "B.java", 1))).isFalse();
    }

    @Test
    @DisplayName("the student's line is the frame nearest the throw that runs any step's method, whatever the order of the steps")
    void running() {
        StepPlaces.Place round = new StepPlaces.Place("3.1", "vramlab.alloc.ToyPolicy", "roundSize", "s");
        StepPlaces.Place find = new StepPlaces.Place("3.2", "vramlab.alloc.CachingAllocator", "findFreeBlock", "s");
        StackTraceElement[] stack = {new StackTraceElement("java.util.TreeMap", "get", "TreeMap.java", 350),
            new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", "ToyPolicy.java", 38),
            new StackTraceElement("vramlab.alloc.CachingAllocator", "findFreeBlock", "CachingAllocator.java", 196)};
        for (List<StepPlaces.Place> places : List.of(List.of(round, find), List.of(find, round))) {
            StepPlaces.Running own = StepPlaces.running(places, stack).orElseThrow();
            assertThat(own.frame()).isSameAs(stack[1]);
            assertThat(own.line()).isEqualTo("ToyPolicy.java:38");
            assertThat(own.method()).isEqualTo("ToyPolicy.roundSize (step 3.1)");
        }
        assertThat(StepPlaces.running(List.of(find), new StackTraceElement[] {stack[0], stack[1]})).isEmpty();
        assertThat(StepPlaces.at(new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", null, 38)))
                .isEqualTo("ToyPolicy:38");
    }

    /** A file of two steps as the kit has it: a marker in each method, an overload of roundSize above. */
    static final List<String> REFERENCE = List.of(
            "class ToyPolicy {",                                          // 1
            "    public long roundSize(int requested) {",                 // 2
            "        return roundSize((long) requested);",                // 3
            "    }",                                                      // 4
            "    public long roundSize(long requested) {",                // 5
            "        // lab:begin 3.1 \"x\" see ch03 \"y\"",                // 6
            "        return requested;",                                  // 7
            "        // lab:end",                                         // 8
            "    }",                                                      // 9
            "    public boolean shouldSplit(long block,",                 // 10
            "                               long rounded) {",             // 11
            "        // lab:begin 3.3 \"x\" see ch03 \"y\"",                // 12
            "        return false;",                                      // 13
            "        // lab:end",                                         // 14
            "    }",                                                      // 15
            "}");

    @Test
    @DisplayName("a step's method line follows the student's file: lines added above it, the Todo gone, an overload, a rename")
    void methodLine() {
        List<String> labs = List.of(
                "class ToyPolicy {",
                "    public long roundSize(int requested) {",
                "        return roundSize((long) requested);",
                "    }",
                "    public long roundSize(long requested) {",
                "        throw new vramlab.lab.Todo(\"3.1\", \"x\", \"y\", \"f\");",
                "    }",
                "    public boolean shouldSplit(long block,",
                "                               long rounded) {",
                "        throw new vramlab.lab.Todo(\"3.3\", \"x\", \"y\", \"f\");",
                "    }",
                "}");
        assertThat(StepPlaces.methodLine(labs, "3.1", REFERENCE, 6)).hasValue(5);
        assertThat(StepPlaces.methodLine(labs, "3.3", REFERENCE, 12)).hasValue(8);
        // every number of lines added above the methods (the student's helpers, comments), Todo kept or written
        for (int added = 0; added <= 12; added++) {
            java.util.ArrayList<String> mine = new java.util.ArrayList<>(labs);
            for (int i = 0; i < added; i++) {       // at the class's top, or right above the method
                int at = i % 2 == 0 ? 1 : mine.indexOf("    public long roundSize(long requested) {");
                mine.add(at, i % 3 == 0 ? "    // note " + i : "    private long helper" + i + "(long x) { return x; }");
            }
            int round = 5 + added, split = 8 + added;
            assertThat(mine.get(round - 1)).contains("roundSize(long");
            assertThat(StepPlaces.methodLine(mine, "3.1", REFERENCE, 6)).as("%d added", added).hasValue(round);
            assertThat(StepPlaces.methodLine(mine, "3.3", REFERENCE, 12)).as("%d added", added).hasValue(split);
            mine.set(round, "        return requested + 1;   // written: the Todo is gone");
            assertThat(StepPlaces.methodLine(mine, "3.1", REFERENCE, 6)).as("%d added, written", added).hasValue(round);
            mine.set(round - 1, "    public long roundSize(long requested)   {  // reformatted: found by name");
            assertThat(StepPlaces.methodLine(mine, "3.1", REFERENCE, 6)).as("%d added, reformatted", added).hasValue(round);
        }
        List<String> renamed = labs.stream().map(l -> l.replace("shouldSplit", "splitOrNot")
                .replace("Todo(\"3.3\"", "Todo(\"9.9\"")).toList();
        assertThat(StepPlaces.methodLine(renamed, "3.3", REFERENCE, 12)).isEmpty();
        assertThat(StepPlaces.methodLine(List.of(), "3.1", REFERENCE, 6)).isEmpty();
        assertThat(StepPlaces.methodLine(labs, "3.1", REFERENCE, 99)).as("a line past the reference's end").isEmpty();
    }

    /**
     * methodLine over every small file a student may make of the step's method: its declaration
     * on one line or split across lines, with {@code final} or annotations; the Todo kept or the
     * step written; an overload of the same name before or after it (other types, other arity,
     * split across lines); comments and strings that name the method, a Todo commented out; lines
     * added above. Each must give the step's own declaration line.
     */
    @Nested
    @DisplayName("methodLine over every small file: overloads, split declarations, annotations, comments that name it")
    class MethodLineCases {
        /** The kit's file with no overload, as ToyPolicy is; its step at line 4. */
        static final List<String> ALONE = List.of(
                "class ToyPolicy {",
                "    @Override",
                "    public long roundSize(long requested) {",
                "        // lab:begin 3.1 \"x\" see ch03 \"y\"",
                "        return requested;",
                "        // lab:end",
                "    }",
                "}");

        /** A way to write the step's declaration: its lines, and which of them declares it. */
        record Declared(String how, List<String> lines, int at) {}

        static final List<Declared> DECLARATIONS = List.of(
                new Declared("one line", List.of("    public long roundSize(long requested) {"), 0),
                new Declared("@Override above", List.of("    @Override", "    public long roundSize(long requested) {"), 1),
                new Declared("@Override on its line", List.of("    @Override public long roundSize(long requested) {"), 0),
                new Declared("split after (", List.of("    @Override", "    public long roundSize(", "            long requested) {"), 1),
                new Declared("split, final", List.of("    public long roundSize(final long",
                        "                          requested)", "    {"), 0),
                new Declared("annotated parameter", List.of("    public long roundSize(@SuppressWarnings(\"unused\") long requested) {"), 0),
                new Declared("spaces and a comment", List.of("    public long roundSize ( long /* bytes */ requested )   { // mine"), 0));

        static final List<List<String>> OVERLOADS = List.of(
                List.of(),
                List.of("    public long roundSize(int requested) {", "        return roundSize((long) requested);", "    }"),
                List.of("    public long roundSize(short s) {", "        return roundSize((long) s);", "    }"),
                List.of("    public long roundSize(Long requested) {", "        return roundSize(requested.longValue());", "    }"),
                List.of("    public long roundSize(long requested, boolean exact) {", "        return exact ? requested : roundSize(requested);", "    }"),
                List.of("    public long roundSize(", "            long requested,", "            boolean exact) {",
                        "        return exact ? requested : roundSize(requested);", "    }"),
                List.of("    public long roundSize(long requested, long step) { return requested; }"));

        static final List<List<String>> COMMENTS = List.of(
                List.of(),
                List.of("    // roundSize(long requested) rounds up: see the notes"),
                List.of("    /*", "    public long roundSize(long requested) {", "        old version", "    */"),
                List.of("    /**", "     roundSize(int requested) below calls", "     @param requested roundSize(long requested)", "     */"),
                List.of("    private static final String HELP = \"\"\"", "        public long roundSize(long requested) {",
                        "        \"\"\";"),
                List.of("    String help() {", "        return \"roundSize(long requested) {\"", "                + \"\";", "    }"),
                List.of("    void was() {", "        // throw new vramlab.lab.Todo(\"3.1\", \"x\", \"y\", \"f\");", "    }"),
                List.of("    public long roundSize(byte b) {", "        // throw new vramlab.lab.Todo(\"3.1\", \"x\", \"y\", \"f\");",
                        "        return roundSize((long) b);", "    }"));

        static final String TODO = "        throw new vramlab.lab.Todo(\"3.1\", \"x\", \"y\", \"f\");";

        @Test
        @DisplayName("the step's own declaration, every way of writing it against every overload and comment (the kit's file as ToyPolicy is)")
        void everyDeclarationOverloadAndComment() {
            assertThat(cases(List.of(false), 0)).isEqualTo(DECLARATIONS.size() * 2 * (2 * OVERLOADS.size() - 1) * COMMENTS.size());
        }

        @Test
        @Tag("grading-fixtures")
        @DisplayName("... and with lines added above, in a kit file with an overload of its own: every combination")
        void everyCombination() {
            assertThat(cases(List.of(false, true), 1))
                    .isEqualTo(DECLARATIONS.size() * 2 * (4 * OVERLOADS.size() - 4) * COMMENTS.size() * 2);
        }

        /**
         * Checks every file made of the kit files named by {@code kitOverloads} (without, with an
         * overload of its own), each declaration, the Todo kept or written, each overload before
         * and after, each comment and 0 to {@code maxAdded} lines added above; returns how many.
         */
        static int cases(List<Boolean> kitOverloads, int maxAdded) {
            int cases = 0;
            for (boolean kitOverload : kitOverloads) {
                List<String> reference = kitOverload ? REFERENCE : ALONE;
                int stepLine = kitOverload ? 6 : 4;
                for (Declared d : DECLARATIONS) {
                    for (boolean written : new boolean[] {false, true}) {
                        for (List<String> overload : OVERLOADS) {
                            if (kitOverload && !overload.isEmpty() && overload.get(0).contains("(int requested)")) continue;
                            for (boolean after : overload.isEmpty() ? new boolean[] {false} : new boolean[] {false, true}) {
                                for (List<String> comment : COMMENTS) {
                                    for (int added = 0; added <= maxAdded; added++) {
                                        java.util.ArrayList<String> file = new java.util.ArrayList<>(List.of("class ToyPolicy {"));
                                        for (int i = 0; i < added; i++) file.add("    private long helper" + i + "(long x) {  return x; }");
                                        if (kitOverload) file.addAll(REFERENCE.subList(1, 4));    // as handed out
                                        if (!after) file.addAll(overload);
                                        file.addAll(comment);
                                        int expected = file.size() + d.at() + 1;
                                        file.addAll(d.lines());
                                        file.add(written ? "        return requested + 1;" : TODO);
                                        file.add("    }");
                                        if (after) file.addAll(overload);
                                        file.add("}");
                                        java.util.OptionalInt got = StepPlaces.methodLine(file, "3.1", reference, stepLine);
                                        if (got.isEmpty() || got.getAsInt() != expected) {     // described only when it fails
                                            assertThat(got).as(d.how() + (written ? ", written" : ", Todo") + ", overload "
                                                    + (overload.isEmpty() ? "none" : overload.get(0).strip() + (after ? " after" : " before"))
                                                    + ", comment " + COMMENTS.indexOf(comment) + ", " + added
                                                    + " added, kit overload " + kitOverload + "\n" + String.join("\n", file))
                                                    .hasValue(expected);
                                        }
                                        cases++;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return cases;
        }

        @Test
        @DisplayName("a parameter list is read across lines, its names, annotations, final and qualifiers left out")
        void parameterTypes() {
            List<String> file = List.of(
                    "class C {",
                    "    @Deprecated(since = \"2\") public <T> java.util.Map<String, List<T>> pick(",
                    "            final java.util.Map<String, Long> byName, // a map",
                    "            @SuppressWarnings(\"x\") int counts[],",
                    "            String... more) {",
                    "    }",
                    "    C() {}",
                    "    // pick(int a) {",
                    "}");
            assertThat(Declarations.of(file)).containsExactly(
                    new Declarations.Declaration(1, "pick", List.of("Map<String,Long>", "int[]", "String...")),
                    new Declarations.Declaration(6, "C", List.of()));
        }
    }
}
